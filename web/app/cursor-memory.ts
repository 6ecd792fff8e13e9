import * as Y from 'yjs'
import type { TextEditor } from '../../core/index.ts'

/**
 * Reloading a room puts the cursor back where it was: the local cursor's place is remembered per
 * room in localStorage as a Yjs relative position (so it survives everyone's edits in between), once
 * the cursor settles and when the page goes away, and restored once the text is there (from this browser's copy or the first sync),
 * unless the user has moved meanwhile.
 */

const KEY = 'cotext.cursor:'
const SAVE_DELAY_MS = 500

interface Loaded {
  whenLocallyLoaded: Promise<void>
  whenSynced: Promise<void>
}

export function restoreCursor(storage: Storage, room: string, editor: TextEditor, loaded: Loaded, reveal: () => void): () => void {
  const key = `${KEY}${room}`
  let saved: Y.RelativePosition | null = null
  try {
    const json: unknown = JSON.parse(storage.getItem(key) ?? 'null')
    if (json !== null && typeof json === 'object') saved = Y.createRelativePositionFromJSON(json)
  } catch {
    saved = null
  }
  let userMoved = false
  let restoring = false
  const restore = (): void => {
    if (saved === null || userMoved || editor.isDestroyed()) return
    // The buffer resolves through its content index (Yjs's own function walks every item to the left).
    const offset = editor.getBuffer().offsetForRelativePosition(saved)
    if (offset === null) return
    restoring = true
    editor.setCursorBufferPosition(editor.getBuffer().positionForCharacterIndex(offset))
    restoring = false
    reveal()
  }
  // Writing localStorage on every keystroke would cost each one a synchronous write: the place is
  // written half a second after the cursor settles, and when the page goes away.
  const win = storageWindow()
  let timer = 0
  const save = (): void => {
    if (timer !== 0) win?.clearTimeout(timer)
    timer = 0
    const cursor = editor.isDestroyed() ? undefined : editor.getLastCursor()
    if (cursor === undefined) return
    const index = editor.getBuffer().characterIndexForPosition(cursor.getBufferPosition())
    try {
      storage.setItem(key, JSON.stringify(Y.relativePositionToJSON(editor.getBuffer().relativePositionForOffset(index, 0))))
    } catch {
      // Storage full or disabled: the cursor starts at the top next time.
    }
  }
  const subscription = editor.onDidChangeCursorPosition(({ cursor, textChanged }) => {
    if (textChanged || cursor !== editor.getLastCursor()) return
    if (!restoring) userMoved = true
    if (timer === 0 && win !== null) timer = win.setTimeout(save, SAVE_DELAY_MS)
  })
  win?.addEventListener('pagehide', save)
  void loaded.whenLocallyLoaded.then(restore)
  void loaded.whenSynced.then(restore)
  return () => {
    save()
    subscription.dispose()
    win?.removeEventListener('pagehide', save)
  }
}

function storageWindow(): Window | null {
  return typeof window === 'undefined' ? null : window
}

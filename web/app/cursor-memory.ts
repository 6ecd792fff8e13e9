import * as Y from 'yjs'
import type { TextEditor } from '../../core/index.ts'

/**
 * Reloading a room puts the cursor back where it was: the local cursor's place is remembered per
 * room in localStorage as a Yjs relative position (so it survives everyone's edits in between), on
 * every move, and restored once the text is there (from this browser's copy or the first sync),
 * unless the user has moved meanwhile.
 */

const KEY = 'cotext.cursor:'

interface Loaded {
  whenLocallyLoaded: Promise<void>
  whenSynced: Promise<void>
}

export function restoreCursor(storage: Storage, room: string, editor: TextEditor, loaded: Loaded, reveal: () => void): () => void {
  const key = `${KEY}${room}`
  const ytext = editor.getBuffer().ytext
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
    const absolute = Y.createAbsolutePositionFromRelativePosition(saved, editor.getBuffer().ytext.doc!)
    if (absolute === null || absolute.type !== ytext) return
    restoring = true
    editor.setCursorBufferPosition(editor.getBuffer().positionForCharacterIndex(absolute.index))
    restoring = false
    reveal()
  }
  const subscription = editor.onDidChangeCursorPosition(({ cursor, textChanged }) => {
    if (textChanged || cursor !== editor.getLastCursor()) return
    if (!restoring) userMoved = true
    const index = editor.getBuffer().characterIndexForPosition(cursor.getBufferPosition())
    try {
      storage.setItem(key, JSON.stringify(Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(ytext, index))))
    } catch {
      // Storage full or disabled: the cursor starts at the top next time.
    }
  })
  void loaded.whenLocallyLoaded.then(restore)
  void loaded.whenSynced.then(restore)
  return () => subscription.dispose()
}

import { describe, expect, it } from 'vitest'
import { TextEditor } from '../../core/editor/text-editor.ts'
import type { ScreenChange } from '../../core/display/screen-patch.ts'

/** What the display layer announces, and whether the transaction had ended when it did. */
function listen(editor: TextEditor): { events: ScreenChange[][]; inside: () => boolean; duringTransaction: boolean[] } {
  const events: ScreenChange[][] = []
  const duringTransaction: boolean[] = []
  let open = false
  editor.getDisplayLayer().onDidChange((changes) => {
    events.push(changes)
    duringTransaction.push(open)
  })
  return {
    events,
    duringTransaction,
    inside: () => (open = !open),
  }
}

describe('changes inside one transact reach the display layer’s listeners as one event', () => {
  it('combines text changes and folds made in one transaction', () => {
    const editor = new TextEditor({ text: 'a\nb\nc\nd\ne\nf' })
    const { events, duringTransaction, inside } = listen(editor)
    editor.transact(() => {
      inside()
      editor.setTextInBufferRange([[0, 0], [0, 0]], 'x\n')
      editor.foldBufferRange([[2, 0], [4, 1]])
      editor.setTextInBufferRange([[6, 0], [6, 0]], 'y')
      inside()
    })
    expect(duringTransaction).toEqual([false])
    expect(events).toHaveLength(1)
    expect(editor.getScreenLineCount()).toBe(5)
  })

  it('announces a fold made inside a transaction that changes no text once it ends', () => {
    const editor = new TextEditor({ text: 'a\nb\nc\nd' })
    const { events, duringTransaction, inside } = listen(editor)
    editor.transact(() => {
      inside()
      editor.foldBufferRange([[0, 0], [1, 1]])
      editor.foldBufferRange([[2, 0], [3, 1]])
      inside()
    })
    expect(duringTransaction).toEqual([false])
    expect(events).toEqual([[{ start: 0, oldCount: 4, newCount: 2 }]])
    // Outside a transaction a fold is announced at once.
    editor.unfoldAll()
    expect(events).toHaveLength(2)
  })
})

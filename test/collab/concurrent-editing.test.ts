import { afterEach, describe, expect, it } from 'vitest'
import { marked } from '../helpers/editor-text.ts'
import { Network, type Client } from './network.ts'

let network: Network
afterEach(() => network?.destroy())

function editor(client: Client) {
  return client.editor!
}

/** The peer's view of `owner` in `viewer`, as the owner's own selections look: ranges and direction. */
function view(viewer: Client, owner: Client): string[] {
  const peer = editor(viewer).getPeers().find((p) => p.clientId === owner.doc.clientID)
  return (peer?.getSelections() ?? []).map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`)
}

function own(client: Client): string[] {
  return editor(client).getSelections().map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`)
}

describe('local cursors under remote edits', () => {
  it('shift with text inserted or deleted before them, stay before text inserted at them, and collapse into deletions', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'one two three four' })
    const bob = network.addClient('bob')
    editor(ada).setSelectedBufferRanges([[[0, 4], [0, 4]], [[0, 8], [0, 13]], [[0, 18], [0, 18]]])
    const bobText = bob.doc.getText('text')
    bobText.insert(0, '> ')
    expect(marked(editor(ada))).toBe('> one |two «three» four|')
    bobText.insert(6, 'TWO ')
    bobText.insert(24, '!')
    expect(marked(editor(ada))).toBe('> one |TWO two «three» four|!')
    // At a selection's start the text joins it; at its end it stays out (both bound to the left).
    bobText.insert(14, '3')
    bobText.insert(20, '_')
    expect(marked(editor(ada))).toBe('> one |TWO two «3three»_ four|!')
    bobText.delete(12, 6)
    expect(marked(editor(ada))).toBe('> one |TWO tw«ee»_ four|!')
    bobText.delete(0, 10)
    expect(marked(editor(ada))).toBe('|tw«ee»_ four|!')
  })
})

describe('concurrent typing at one position', () => {
  it('leaves each user’s cursor after their own text when both type offline and merge', () => {
    network = new Network({ queued: true })
    const ada = network.addClient('ada', { text: 'hello world' })
    const bob = network.addClient('bob')
    network.deliverAll()
    editor(ada).setCursorBufferPosition([0, 5])
    editor(bob).setCursorBufferPosition([0, 5])
    editor(ada).insertText(', dear')
    editor(bob).insertText(' big')
    for (const text of ['!', '?']) {
      editor(ada).insertText(text)
      editor(bob).insertText(text)
    }
    network.deliverAll()
    expect(editor(ada).getText()).toBe(editor(bob).getText())
    expect(editor(ada).getText()).toBe('hello, dear!? big!? world')
    expect(marked(editor(ada))).toBe('hello, dear!?| big!? world')
    expect(marked(editor(bob))).toBe('hello, dear!? big!?| world')
    expect(view(ada, bob)).toEqual(own(bob))
    expect(view(bob, ada)).toEqual(own(ada))
  })

  it('leaves each user’s cursor after their own text when they type alternately, live', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: '[]' })
    const bob = network.addClient('bob')
    editor(ada).setCursorBufferPosition([0, 1])
    editor(bob).setCursorBufferPosition([0, 1])
    for (let i = 0; i < 3; i++) {
      editor(ada).insertText('a')
      editor(bob).insertText('b')
    }
    expect(marked(editor(ada))).toBe('[bbbaaa|]')
    expect(marked(editor(bob))).toBe('[bbb|aaa]')
    expect(view(ada, bob)).toEqual(['[(0, 4) - (0, 4)]'])
    expect(view(bob, ada)).toEqual(['[(0, 7) - (0, 7)]'])
  })
})

describe('per-user undo', () => {
  it('reverts only this user’s changes, interleaved with another’s, and restores this user’s selections', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'let x = 1\n' })
    const bob = network.addClient('bob')
    editor(ada).setCursorBufferPosition([0, 9])
    editor(ada).insertText('0')
    editor(bob).setCursorBufferPosition([1, 0])
    editor(bob).insertText('let y = 2\n')
    editor(ada).setSelectedBufferRange([[0, 4], [0, 5]])
    editor(ada).insertText('total')
    editor(bob).setCursorBufferPosition([0, 0])
    editor(bob).insertText('// sum\n')
    editor(ada).selectToEndOfLine()
    expect(marked(editor(ada))).toBe('// sum\nlet total« = 10»\nlet y = 2\n')

    editor(ada).undo()
    expect(marked(editor(ada))).toBe('// sum\nlet «x» = 10\nlet y = 2\n')
    expect(editor(bob).getText()).toBe(editor(ada).getText())
    expect(view(bob, ada)).toEqual(own(ada))
    editor(ada).undo()
    expect(marked(editor(ada))).toBe('// sum\nlet x = 1|\nlet y = 2\n')
    expect(editor(ada).undo()).toBe(false)
    expect(editor(bob).getText()).toBe('// sum\nlet x = 1\nlet y = 2\n')

    editor(ada).redo()
    editor(ada).redo()
    expect(editor(bob).getText()).toBe('// sum\nlet total = 10\nlet y = 2\n')
    expect(view(bob, ada)).toEqual(own(ada))
    // Bob's history is his own.
    editor(bob).undo()
    expect(editor(ada).getText()).toBe('let total = 10\nlet y = 2\n')
  })
})

describe('offline merge', () => {
  it('keeps working offline; once the updates are exchanged texts converge and cursors stay by their text', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'alpha\nbeta\ngamma\n' })
    const bob = network.addClient('bob')
    network.disconnect(bob)
    expect(editor(ada).getPeers()).toEqual([])
    editor(ada).setCursorBufferPosition([1, 4])
    editor(ada).insertText(' BETA')
    editor(ada).addCursorAtBufferPosition([2, 0])
    editor(bob).setCursorBufferPosition([0, 5])
    editor(bob).insertText(' ALPHA')
    editor(bob).setSelectedBufferRange([[2, 0], [2, 5]])
    editor(bob).insertText('GAMMA')
    editor(bob).selectToBeginningOfLine()
    expect(marked(editor(ada))).toBe('alpha\nbeta BETA|\n|gamma\n')
    expect(marked(editor(bob))).toBe('alpha ALPHA\nbeta\n«GAMMA»\n')

    network.reconnect(bob)
    const text = 'alpha ALPHA\nbeta BETA\nGAMMA\n'
    expect(editor(ada).getText()).toBe(text)
    expect(editor(bob).getText()).toBe(text)
    expect(marked(editor(ada))).toBe('alpha ALPHA\nbeta BETA|\n|GAMMA\n')
    expect(marked(editor(bob))).toBe('alpha ALPHA\nbeta BETA\n«GAMMA»\n')
    expect(view(ada, bob)).toEqual(own(bob))
    expect(view(bob, ada)).toEqual(own(ada))
    expect(own(bob)).toEqual(['[(2, 0) - (2, 5)] reversed'])
  })
})

describe('positions whose neighbourhood the buffer reports as rewritten', () => {
  it("republishes when a remote '\\n' joins the '\\r' a cursor is bound to into one line ending", () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'a\rb' })
    const bob = network.addClient('bob')
    editor(ada).setCursorBufferPosition([1, 0])
    bob.doc.getText('text').insert(2, '\n')
    expect(editor(ada).getText()).toBe('a\r\nb')
    expect(own(ada)).toEqual(['[(1, 0) - (1, 0)]'])
    expect(ada.editor!.getLastCursor()!.getMarker().headOffset).toBe(3)
    // Someone who resolves Ada's published position only now finds her where she is.
    const carol = network.addClient('carol')
    expect(view(carol, ada)).toEqual(own(ada))
    expect(view(bob, ada)).toEqual(own(ada))
  })
})

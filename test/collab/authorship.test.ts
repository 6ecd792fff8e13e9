import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Network, type Client } from './network.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'

let network: Network
afterEach(() => network?.destroy())

function editor(client: Client): TextEditor {
  return client.editor!
}

/** Authorship as "name:text" pieces, to read at a glance. */
function who(client: Client): string[] {
  const e = editor(client)
  return e.getAuthorship().map((run) => `${run.author.user?.name ?? run.author.clientID}:${e.getBuffer().getTextBetweenOffsets(run.from, run.to)}`)
}

function three(text = ''): [Client, Client, Client] {
  network = new Network()
  const ada = network.addClient('ada', { user: { name: 'ada', color: '#d81b60' }, ...(text ? { text } : {}) })
  const bob = network.addClient('bob', { user: { name: 'bob', color: '#1e88e5' } })
  const cy = network.addClient('cy', { user: { name: 'cy', color: '#43a047' } })
  return [ada, bob, cy]
}

function texts(...clients: Client[]): string[] {
  return clients.map((c) => editor(c).getText())
}

describe('the change log', () => {
  it('records local and remote changes with author, origin and IDs, oldest first', () => {
    const [ada, bob, cy] = three()
    editor(ada).insertText('hello')
    editor(bob).setCursorBufferPosition([0, 5])
    editor(bob).insertText(' world')
    editor(cy).setSelectedBufferRange([[0, 0], [0, 1]])
    editor(cy).insertText('H')
    const changes = editor(ada).getChanges()
    expect(changes.map((c) => [c.author.user?.name, c.origin])).toEqual([
      ['ada', 'local'],
      ['bob', 'remote'],
      ['cy', 'remote'],
    ])
    expect(changes[0]!.insertedIds).toEqual([{ client: ada.doc.clientID, clock: 0, length: 5 }])
    expect(changes[2]!.deletedIds).toEqual([{ client: ada.doc.clientID, clock: 0, length: 1 }])
    expect(changes[2]!.insertedIds).toEqual([{ client: cy.doc.clientID, clock: 0, length: 1 }])
    expect(changes.every((c) => c.revertible && !c.author.attested)).toBe(true)
    expect(editor(cy).getChanges({ author: 'bob' }).map((c) => c.insertedIds[0]!.length)).toEqual([6])
    expect(editor(cy).getChanges({ author: bob.doc.clientID }).length).toBe(1)
  })

  it('tells each new change to onDidAddChange, and filters by time', () => {
    const [ada, bob] = three()
    const seen: string[] = []
    editor(bob).onDidAddChange((c) => seen.push(`${c.id}:${c.origin}`))
    editor(ada).insertText('a')
    editor(bob).insertText('b')
    expect(seen).toEqual(['1:remote', '2:local'])
    const [first] = editor(bob).getChanges()
    expect(editor(bob).getChanges({ since: first!.time, until: first!.time }).length).toBeGreaterThanOrEqual(1)
    expect(editor(bob).getChanges({ since: Date.now() + 60_000 })).toEqual([])
  })

  it('names attested authors from the server-written bindings map', () => {
    const [ada, bob] = three()
    editor(ada).insertText('signed')
    // The server writes the binding into the shared map (here: one doc standing for it, synced to all).
    bob.doc.getMap('cotext:authors').set(String(ada.doc.clientID), { id: 'u-ada', name: 'Ada L.' })
    const [run] = editor(bob).getAuthorship()
    expect(run!.author).toEqual({ clientID: ada.doc.clientID, user: { id: 'u-ada', name: 'Ada L.', color: '#d81b60' }, attested: true })
    expect(editor(bob).getChanges({ author: 'u-ada' }).length).toBe(1)
    // A binding the server could not check (no AUTH_SECRET) leaves the client's own name, unattested.
    editor(bob).insertText('!')
    ada.doc.getMap('cotext:authors').set(String(bob.doc.clientID), { id: 'conn-2', name: 'conn-2', attested: false })
    expect(editor(ada).getAuthorship().map((r) => [r.author.user?.name, r.author.attested])).toEqual([
      ['bob', false],
      ['Ada L.', true],
    ])
  })
})

describe('authorship', () => {
  it('maps every character to its writer, in runs that typing does not split per character', () => {
    const [ada, bob, cy] = three()
    for (const ch of 'abcdef') editor(ada).insertText(ch)
    editor(bob).setCursorBufferPosition([0, 3])
    for (const ch of 'XY') editor(bob).insertText(ch)
    editor(cy).setCursorBufferPosition([0, 8])
    editor(cy).insertText('!')
    for (const c of [ada, bob, cy]) expect(who(c)).toEqual(['ada:abc', 'bob:XY', 'ada:def', 'cy:!'])
    editor(ada).setSelectedBufferRange([[0, 2], [0, 6]])
    editor(ada).delete()
    for (const c of [ada, bob, cy]) expect(who(c)).toEqual(['ada:abef', 'cy:!'])
    const part = editor(bob).getAuthorship([[0, 1], [0, 3]])
    expect(part.map((r) => [r.range.toString(), r.author.user?.name])).toEqual([['[(0, 1) - (0, 3)]', 'ada']])
  })

  it('is built from the document an editor opens, and survives concurrent edits', () => {
    network = new Network({ queued: true })
    const ada = network.addClient('ada', { user: { name: 'ada', color: '#d81b60' } })
    const bob = network.addClient('bob', { user: { name: 'bob', color: '#1e88e5' } })
    network.deliverAll()
    editor(ada).insertText('1111')
    network.deliverAll()
    editor(ada).setCursorBufferPosition([0, 2])
    editor(ada).insertText('aa')
    editor(bob).setCursorBufferPosition([0, 2])
    editor(bob).insertText('bb')
    network.deliverAll()
    expect(who(ada)).toEqual(who(bob))
    const late = new TextEditor({ doc: (() => { const d = new Y.Doc(); Y.applyUpdate(d, Y.encodeStateAsUpdate(ada.doc)); return d })() })
    expect(late.getAuthorship().map((r) => [r.author.clientID, r.to - r.from])).toEqual(editor(ada).getAuthorship().map((r) => [r.author.clientID, r.to - r.from]))
    late.destroy()
  })
})

describe('undo by choice', () => {
  it('undo() stays mine; undo everyone takes the latest change whoever made it, and redo brings it back', () => {
    const [ada, bob, cy] = three()
    editor(ada).insertText('ada ')
    editor(bob).setCursorBufferPosition([0, 4])
    editor(bob).insertText('bob ')
    editor(cy).setCursorBufferPosition([0, 8])
    editor(cy).insertText('cy')
    expect(editor(ada).undo()).toBe(true)
    expect(texts(ada, bob, cy)).toEqual(['bob cy', 'bob cy', 'bob cy'])
    expect(editor(ada).redo()).toBe(true)
    expect(texts(ada, bob, cy)).toEqual(['ada bob cy', 'ada bob cy', 'ada bob cy'])
    // Everyone's latest changes, newest first: ada's redo, ada's undo, cy's text, bob's, ada's.
    expect(editor(bob).undo({ scope: 'everyone' })).toBe(true)
    expect(editor(bob).getText()).toBe('bob cy')
    expect(editor(bob).undo({ scope: 'everyone' })).toBe(true)
    expect(texts(ada, bob, cy)).toEqual(['ada bob cy', 'ada bob cy', 'ada bob cy'])
    expect(editor(bob).undo({ scope: 'everyone' })).toBe(true)
    expect(texts(ada, bob, cy)).toEqual(['ada bob ', 'ada bob ', 'ada bob '])
    expect(editor(bob).redo({ scope: 'everyone' })).toBe(true)
    expect(texts(ada, bob, cy)).toEqual(['ada bob cy', 'ada bob cy', 'ada bob cy'])
    // Redo selects what came back, as undo restores selections.
    expect(editor(bob).getSelectedBufferRange().toString()).toBe('[(0, 8) - (0, 10)]')
    expect(editor(bob).redo({ scope: 'everyone' })).toBe(true)
    expect(editor(bob).redo({ scope: 'everyone' })).toBe(true)
    expect(editor(bob).redo({ scope: 'everyone' })).toBe(false)
    expect(texts(ada, bob, cy)).toEqual(['ada bob cy', 'ada bob cy', 'ada bob cy'])
  })

  it('reverts a change under nested edits: text others inserted inside stays, text others deleted stays deleted', () => {
    const [ada, bob, cy] = three()
    editor(ada).insertText('ABCDEFG')
    const [typed] = editor(ada).getChanges()
    editor(bob).setCursorBufferPosition([0, 3])
    editor(bob).insertText('***')
    editor(cy).setSelectedBufferRange([[0, 7], [0, 8]])
    editor(cy).delete()
    expect(editor(cy).getText()).toBe('ABC***DFG')
    const revert = editor(cy).revertChange(typed!.id)
    expect(texts(ada, bob, cy)).toEqual(['***', '***', '***'])
    expect(revert!.origin).toBe('local')
    expect(revert!.isRevert).toBe(true)
    expect(typed!.isRevert).toBe(false)
    expect(revert!.author.user?.name).toBe('cy')
    // Reverting the revert is the redo: ada's text is back, without what cy deleted.
    editor(bob).revertChange(editor(bob).getChanges().at(-1)!)
    expect(texts(ada, bob, cy)).toEqual(['ABC***DFG', 'ABC***DFG', 'ABC***DFG'])
    // Restored text is new Yjs items: it reads as written by whoever restored it.
    expect(who(ada)).toEqual(['bob:ABC***DFG'])
  })

  it('reverts all of one author in a window as one change, and converges with concurrent typing', () => {
    network = new Network({ queued: true })
    const ada = network.addClient('ada', { user: { name: 'ada', color: '#d81b60' } })
    const bob = network.addClient('bob', { user: { name: 'bob', color: '#1e88e5' } })
    const cy = network.addClient('cy', { user: { name: 'cy', color: '#43a047' } })
    network.deliverAll()
    editor(ada).insertText('base. ')
    network.deliverAll()
    editor(bob).setCursorBufferPosition([0, 6])
    editor(bob).insertText('one ')
    editor(bob).insertText('two ')
    network.deliverAll()
    editor(bob).setSelectedBufferRange([[0, 0], [0, 4]])
    editor(bob).delete()
    network.deliverAll()
    expect(editor(cy).getText()).toBe('. one two ')
    const before = editor(cy).getChanges().length
    editor(ada).setCursorBufferPosition([0, 0])
    editor(ada).insertText('>')
    // A peer's log knows who inserted text, not who deleted it (Yjs does not say): cy reverts bob's insertions.
    const revert = editor(cy).revertChanges({ author: 'bob' })
    expect(editor(cy).getChanges().length).toBe(before + 1)
    expect(revert!.deletedIds.reduce((n, r) => n + r.length, 0)).toBe(8)
    network.deliverAll()
    expect(texts(ada, bob, cy)).toEqual(['>. ', '>. ', '>. '])
    // Bob's own log has his deletion too: reverting his changes there brings "base" back.
    editor(bob).revertChanges({ author: 'bob' })
    network.deliverAll()
    // Yjs places the restored text before ada's '>' (which went in at the deleted text's left edge); all agree.
    expect(texts(ada, bob, cy)).toEqual(['base>. ', 'base>. ', 'base>. '])
    expect(editor(ada).getChanges().filter((c) => c.author.clientID === 0).map((c) => c.deletedIds.length)).toEqual([1, 1])
  })

  it('refuses an unknown change and changes nothing', () => {
    const [ada] = three('x')
    expect(() => editor(ada).revertChange('99')).toThrow('revertChange: no change "99"')
    expect(editor(ada).getText()).toBe('x')
  })
})

describe('diffFrom', () => {
  it('reports inserted ranges and deleted text since an earlier state, with authors', () => {
    const [ada, bob] = three()
    editor(ada).insertText('one two three')
    const state = Y.encodeStateAsUpdate(ada.doc)
    editor(bob).setSelectedBufferRange([[0, 4], [0, 8]])
    editor(bob).insertText('2 ')
    editor(ada).setCursorBufferPosition([0, 0])
    editor(ada).insertText('> ')
    const diff = editor(ada).diffFrom(state)
    expect(diff.inserted.map((d) => [d.from, d.to, d.author.user?.name])).toEqual([
      [0, 2, 'ada'],
      [6, 8, 'bob'],
    ])
    expect(diff.deleted.map((d) => [d.at, d.text, d.author.user?.name])).toEqual([[6, 'two ', 'ada']])
    expect(() => editor(ada).diffFrom('x' as unknown as Uint8Array)).toThrow(TypeError)
  })
})

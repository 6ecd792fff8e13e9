import { afterEach, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { Peer } from '../../core/index.ts'
import { Point } from '../../core/point/point.ts'
import { Range } from '../../core/point/range.ts'
import type { CursorPositionEvent } from '../../core/selection/cursor.ts'
import type { SelectionRangeEvent } from '../../core/selection/selection.ts'
import { Network, type Client } from './network.ts'

let network: Network
afterEach(() => network?.destroy())

function peerOf(viewer: Client, owner: Client): Peer {
  const peer = viewer.editor!.getPeers().find((p) => p.clientId === owner.doc.clientID)
  if (!peer) throw new Error(`${viewer.name} does not see ${owner.name}`)
  return peer
}

function ranges(selections: { getBufferRange(): Range; isReversed(): boolean }[]): string[] {
  return selections.map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`)
}

function moves(events: CursorPositionEvent[]): [number[], number[], boolean][] {
  return events.map((e) => [e.oldBufferPosition.toArray(), e.newBufferPosition.toArray(), e.textChanged])
}

describe('peers', () => {
  it("shows every other client's selections as real Selection and Cursor objects in this editor's coordinates", () => {
    network = new Network()
    const ada = network.addClient('ada', { user: { name: 'Ada', color: '#d81b60' }, text: 'one\n\ttwo\nthree' })
    const bob = network.addClient('bob', { tabLength: 4 })
    ada.editor!.setSelectedBufferRanges([[[0, 1], [0, 3]], [[1, 1], [1, 1]], [[2, 0], [2, 2]]])
    ada.editor!.getSelections()[2]!.setBufferRange([[2, 0], [2, 2]], { reversed: true })
    const peer = peerOf(bob, ada)
    expect(peer).toBeInstanceOf(Peer)
    expect(bob.editor!.getPeers()).toEqual([peer])
    expect(peer.user).toEqual({ name: 'Ada', color: '#d81b60' })
    expect(ranges(peer.getSelections())).toEqual(ranges(ada.editor!.getSelections()))
    expect(ranges(peer.getSelections())).toEqual(['[(0, 1) - (0, 3)]', '[(1, 1) - (1, 1)]', '[(2, 0) - (2, 2)] reversed'])
    expect(peer.getCursors().map((c) => c.getBufferPosition().toArray())).toEqual([[0, 3], [1, 1], [2, 0]])
    // Screen coordinates are Bob's: his tabs are 4 columns wide, Ada's 2.
    expect(peer.getCursors()[1]!.getScreenPosition()).toEqual(new Point(1, 4))
    expect(ada.editor!.getCursors()[1]!.getScreenPosition()).toEqual(new Point(1, 2))
    expect(peer.getLastSelection()).toBe(peer.getSelections()[2])
    expect(peer.getLastCursor()).toBe(peer.getSelections()[2]!.cursor)
    expect(peer.getSelections().map((s) => s.isLastSelection())).toEqual([false, false, true])
    expect(peer.getCursors().map((c) => c.isLastCursor())).toEqual([false, false, true])
    // Queries work as on local ones.
    const [first, second] = peer.getSelections()
    expect(first!.getText()).toBe('ne')
    expect(first!.getCursor().getSelection()).toBe(first)
    expect(second!.cursor.getCurrentWordBufferRange()).toEqual(new Range([1, 1], [1, 4]))
    expect(second!.cursor.isLocal()).toBe(false)
    expect(second!.isLocal()).toBe(false)
    expect(first!.getScreenRange()).toEqual(new Range([0, 1], [0, 3]))
    // They are not Bob's.
    expect(bob.editor!.getCursors()).toHaveLength(1)
    expect(bob.editor!.getSelections().some((s) => peer.getSelections().includes(s))).toBe(false)
  })

  it("places peers' cursors on this editor's screen: its soft wrap and its folds", () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'aaaa bbbb cccc dddd\none\ntwo\nthree' })
    const bob = network.addClient('bob', { softWrapped: true, editorWidthInChars: 10 })
    ada.editor!.setSelectedBufferRanges([[[0, 12], [0, 12]], [[2, 1], [3, 2]]])
    const [cursor, selection] = peerOf(bob, ada).getSelections()
    expect(cursor!.cursor.getScreenPosition()).toEqual(new Point(1, 2))
    expect(ada.editor!.getCursors()[0]!.getScreenPosition()).toEqual(new Point(0, 12))
    // Bob folds over Ada's selection: it keeps its buffer range, and its screen range shrinks to the fold.
    bob.editor!.foldBufferRange([[1, 1], [3, 4]])
    expect(bob.editor!.lineTextForScreenRow(2)).toBe('o⋯e')
    expect(selection!.getBufferRange()).toEqual(new Range([2, 1], [3, 2]))
    expect(selection!.getScreenRange()).toEqual(new Range([2, 1], [2, 2]))
    expect(selection!.cursor.getScreenPosition()).toEqual(new Point(2, 2))
    expect(bob.editor!.isFoldedAtBufferRow(2)).toBe(true)
  })

  it('announces peers with their selections, and a peer announces selections it adds and removes', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abcdef' })
    const bob = network.addClient('bob')
    const log: string[] = []
    bob.editor!.onDidAddPeer((peer) => log.push(`add-peer ${peer.clientId} with ${peer.getSelections().length}`))
    const carol = network.addClient('carol')
    const peer = peerOf(bob, carol)
    peer.onDidAddSelection((s) => log.push(`add ${s.getBufferRange().toString()}`))
    peer.onDidRemoveSelection((s) => log.push(`remove ${s.getBufferRange().toString()}`))
    carol.editor!.addCursorAtBufferPosition([0, 3])
    carol.editor!.addCursorAtBufferPosition([0, 5])
    carol.editor!.setCursorBufferPosition([0, 1])
    expect(log).toEqual([
      `add-peer ${carol.doc.clientID} with 1`,
      'add [(0, 3) - (0, 3)]',
      'add [(0, 5) - (0, 5)]',
      'remove [(0, 3) - (0, 3)]',
      'remove [(0, 5) - (0, 5)]',
    ])
    expect(ranges(peer.getSelections())).toEqual(['[(0, 1) - (0, 1)]'])
    expect(bob.editor!.getPeers().map((p) => p.clientId)).toEqual([ada.doc.clientID, carol.doc.clientID])
  })

  it('fires a peer cursor event once when the peer moves it (textChanged false) and once per edit that shifts it (true)', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'hello world' })
    const bob = network.addClient('bob')
    const carol = network.addClient('carol')
    ada.editor!.setCursorBufferPosition([0, 6])
    const cursor = peerOf(bob, ada).getLastCursor()!
    const events: CursorPositionEvent[] = []
    const rangeEvents: SelectionRangeEvent[] = []
    cursor.onDidChangePosition((event) => events.push(event))
    cursor.getSelection().onDidChangeRange((event) => rangeEvents.push(event))

    ada.editor!.moveRight()
    carol.doc.getText('text').insert(0, '>> ')
    bob.editor!.setCursorBufferPosition([0, 0])
    bob.editor!.insertText('#')
    // Carol deletes the character Ada's position is bound to: Ada republishes, at the same place.
    const before = ada.localAwarenessUpdates
    carol.doc.getText('text').delete(10, 1)
    expect(ada.localAwarenessUpdates - before).toBe(1)
    expect(moves(events)).toEqual([
      [[0, 6], [0, 7], false],
      [[0, 7], [0, 10], true],
      [[0, 10], [0, 11], true],
      [[0, 11], [0, 10], true],
    ])
    expect(events[0]!.cursor).toBe(cursor)
    expect(events[0]!.newScreenPosition).toEqual(new Point(0, 7))
    expect(rangeEvents.map((e) => e.newBufferRange.toString())).toEqual(['[(0, 7) - (0, 7)]', '[(0, 10) - (0, 10)]', '[(0, 11) - (0, 11)]', '[(0, 10) - (0, 10)]'])
    expect(cursor.getBufferPosition()).toEqual(ada.editor!.getCursorBufferPosition())
    // Ada types at her cursor: her text lands before it; her new position arrives as a move.
    events.length = 0
    ada.editor!.insertText('X')
    expect(moves(events)).toEqual([[[0, 10], [0, 11], false]])
  })

  it('keeps events of a peer cursor silent for edits after it', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'one\ntwo' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([0, 2])
    const events: CursorPositionEvent[] = []
    peerOf(bob, ada).getLastCursor()!.onDidChangePosition((event) => events.push(event))
    bob.editor!.setCursorBufferPosition([1, 1])
    bob.editor!.insertText('x')
    // Exactly at the peer's cursor: it stays before the inserted text.
    bob.editor!.setCursorBufferPosition([0, 2])
    bob.editor!.insertText('y')
    expect(events).toEqual([])
    expect(peerOf(bob, ada).getLastCursor()!.getBufferPosition()).toEqual(new Point(0, 2))
  })

  it('throws from every method that would move or edit through a peer selection or cursor, changing nothing', () => {
    network = new Network()
    const ada = network.addClient('ada', { user: { name: 'Ada', color: '#d81b60' }, text: 'one two\n  three\nfour' })
    const bob = network.addClient('bob')
    ada.editor!.setSelectedBufferRanges([[[0, 1], [0, 5]], [[1, 3], [1, 3]]])
    const peer = peerOf(bob, ada)
    const [selection, other] = peer.getSelections() as [NonNullable<ReturnType<Peer['getLastSelection']>>, NonNullable<ReturnType<Peer['getLastSelection']>>]
    const cursor = selection.cursor

    const queries = new Set([
      'constructor', 'isLastSelection', 'isLocal', 'getCursor', 'onDidChangeRange', 'onDidDestroy', 'getScreenRange', 'getBufferRange',
      'getBufferRowRange', 'getTailScreenPosition', 'getTailBufferPosition', 'getHeadScreenPosition', 'getHeadBufferPosition', 'isEmpty',
      'isReversed', 'isSingleScreenLine', 'getText', 'intersectsBufferRange', 'intersectsScreenRowRange', 'intersectsScreenRow',
      'intersectsWith', 'compare', 'getGoalScreenRange', 'copy',
      // Cursor
      'onDidChangePosition', 'onDidChangeVisibility', 'getScreenPosition', 'getBufferPosition', 'getScreenRow', 'getScreenColumn',
      'getBufferRow', 'getBufferColumn', 'getCurrentBufferLine', 'isAtBeginningOfLine', 'isAtEndOfLine', 'getMarker', 'getSelection',
      'isSurroundedByWhitespace', 'isBetweenWordAndNonWord', 'isInsideWord', 'getIndentLevel', 'getScopeDescriptor',
      'getSyntaxTreeScopeDescriptor', 'hasPrecedingCharactersOnLine', 'isLastCursor', 'getPreviousWordBoundaryBufferPosition',
      'getNextWordBoundaryBufferPosition', 'getBeginningOfCurrentWordBufferPosition', 'getEndOfCurrentWordBufferPosition',
      'getBeginningOfNextWordBufferPosition', 'getCurrentWordBufferRange', 'getCurrentLineBufferRange', 'getCurrentParagraphBufferRange',
      'getCurrentWordPrefix', 'isVisible', 'wordRegExp', 'subwordRegExp', 'getNonWordCharacters', 'getFirstCharacterColumn',
    ])
    // Internal helpers (private, or for the collaboration layer).
    const internal = new Set([
      'subscribeToMarker', 'destroyRemote', 'assertLocal', 'write', 'deleteAfterSelecting', 'addSelectionVertically', 'finalize',
      'markerDidChange', 'markerDidDestroy', 'mergeWith', 'wordOptions', 'moveVertically', 'changePosition', 'needsMoves',
    ])
    const args: Record<string, unknown[]> = {
      setScreenRange: [[[0, 0], [0, 1]]],
      setBufferRange: [[[0, 0], [0, 1]]],
      selectToScreenPosition: [[0, 0]],
      selectToBufferPosition: [[0, 0]],
      insertText: ['x'],
      merge: [other],
      setGoalScreenRange: [[[0, 0], [0, 1]]],
      setScreenPosition: [[0, 0]],
      setBufferPosition: [[0, 0]],
      setVisible: [false],
    }
    const snapshot = () => [ada.editor!.getText(), bob.editor!.getText(), ranges(peer.getSelections()), ranges(bob.editor!.getSelections()), bob.editor!.isFoldedAtBufferRow(0)]
    const before = snapshot()
    const checked: string[] = []
    for (const target of [selection, cursor]) {
      for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(target))) {
        if (queries.has(name) || internal.has(name)) continue
        const method = (target as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!
        expect(() => method.apply(target, args[name] ?? []), name).toThrowError(/^Cannot .* this (selection|cursor): it belongs to another user \(Ada\)$/)
        checked.push(name)
        expect(snapshot(), name).toEqual(before)
      }
    }
    // The seed's movers and editors are all there, and more.
    expect(checked).toEqual(expect.arrayContaining(['destroy', 'clear', 'selectAll', 'insertText', 'backspace', 'deleteLine', 'indent', 'moveUp', 'moveToBottom', 'skipLeadingWhitespace', 'setVisible']))
    expect(checked.length).toBeGreaterThan(75)
    expect(cursor.isVisible()).toBe(true)
  })

  it('moves, selects and edits only local cursors with editor-level commands', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abc\ndef' })
    const bob = network.addClient('bob')
    ada.editor!.setCursorBufferPosition([1, 1])
    bob.editor!.setCursorBufferPosition([1, 1])
    bob.editor!.moveDown()
    bob.editor!.selectAll()
    bob.editor!.consolidateSelections()
    bob.editor!.setCursorBufferPosition([0, 0])
    bob.editor!.insertText('>')
    expect(bob.editor!.getCursors().map((c) => c.getBufferPosition().toArray())).toEqual([[0, 1]])
    expect(peerOf(bob, ada).getLastCursor()!.getBufferPosition()).toEqual(new Point(1, 1))
    expect(ada.editor!.getCursorBufferPosition()).toEqual(new Point(1, 1))
  })

  it('reads a y-codemirror.next state with only a cursor as a peer with one selection', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'hello world' })
    const cm = network.addClient('cm', { editor: false })
    const ytext = cm.doc.getText('text')
    cm.awareness.setLocalStateField('user', { name: 'CM', color: '#30bced', colorLight: '#30bced33' })
    cm.awareness.setLocalStateField('cursor', {
      anchor: Y.createRelativePositionFromTypeIndex(ytext, 2),
      head: Y.createRelativePositionFromTypeIndex(ytext, 5),
    })
    const peer = peerOf(ada, cm)
    expect(peer.user).toEqual({ name: 'CM', color: '#30bced' })
    expect(ranges(peer.getSelections())).toEqual(['[(0, 2) - (0, 5)]'])
    // Y.relativePositionToJSON's form (no item at the end of the text) is read too.
    cm.awareness.setLocalStateField('cursor', {
      anchor: Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(ytext, 11)),
      head: Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(ytext, 0)),
    })
    expect(ranges(peer.getSelections())).toEqual(['[(0, 0) - (0, 11)] reversed'])
    cm.awareness.setLocalStateField('cursor', null)
    expect(peer.getSelections()).toEqual([])
    expect(ada.editor!.getPeers()).toEqual([peer])
  })

  it('keeps a position whose text has not arrived yet, and places it when it does', () => {
    network = new Network({ queued: true })
    const ada = network.addClient('ada', { text: 'abc' })
    const bob = network.addClient('bob')
    network.deliverAll()
    const peer = peerOf(bob, ada)
    const log: string[] = []
    peer.onDidAddSelection((s) => log.push(`add ${s.getBufferRange().toString()}`))
    peer.getLastCursor()!.onDidChangePosition((e) => log.push(`move ${e.newBufferPosition.toString()} ${e.textChanged}`))
    ada.editor!.insertText('def')
    ada.editor!.addCursorAtBufferPosition([0, 5])
    network.deliver('awareness')
    // Ada's selections now lie in text Bob does not have: the old one stays, the new one waits.
    expect(ranges(peer.getSelections())).toEqual(['[(0, 3) - (0, 3)]'])
    expect(peer.hasPendingPositions()).toBe(true)
    network.deliver('doc')
    expect(bob.editor!.getText()).toBe('abcdef')
    expect(ranges(peer.getSelections())).toEqual(['[(0, 6) - (0, 6)]', '[(0, 5) - (0, 5)]'])
    expect(log).toEqual(['move (0, 6) false', 'add [(0, 5) - (0, 5)]'])
    expect(peer.hasPendingPositions()).toBe(false)
  })

  it('removes a peer that leaves or times out, after its selections, and adds it again when it returns', () => {
    network = new Network()
    const ada = network.addClient('ada', { user: { name: 'Ada', color: '#000' }, text: 'abc' })
    const bob = network.addClient('bob')
    ada.editor!.setSelectedBufferRanges([[[0, 0], [0, 1]], [[0, 2], [0, 3]]])
    const log: string[] = []
    const watch = (peer: Peer) => {
      peer.getSelections().forEach((s, i) => {
        s.cursor.onDidDestroy(() => log.push(`cursor ${i} destroyed`))
        s.onDidDestroy(() => log.push(`selection ${i} destroyed`))
      })
      peer.onDidRemoveSelection(() => log.push('peer removed a selection'))
      peer.onDidDestroy(() => log.push('peer destroyed'))
    }
    bob.editor!.onDidRemovePeer((peer) => log.push(`removed ${peer.user.name}`))
    bob.editor!.onDidAddPeer((peer) => log.push(`added ${peer.user.name}`))
    const first = peerOf(bob, ada)
    watch(first)
    network.disconnect(ada)
    expect(log).toEqual([
      'cursor 0 destroyed', 'selection 0 destroyed', 'peer removed a selection',
      'cursor 1 destroyed', 'selection 1 destroyed', 'peer removed a selection',
      'peer destroyed', 'removed Ada',
    ])
    expect(first.isDestroyed()).toBe(true)
    expect(first.getSelections()).toEqual([])
    expect(bob.editor!.getPeers()).toEqual([])
    expect(() => first.onDidAddSelection(() => {})).toThrow()
    // Offline, Ada keeps working; back online she is a new Peer, in her new place.
    ada.editor!.moveRight()
    log.length = 0
    network.reconnect(ada)
    const second = peerOf(bob, ada)
    expect(second).not.toBe(first)
    expect(log).toEqual(['added Ada'])
    expect(ranges(second.getSelections())).toEqual(['[(0, 1) - (0, 1)]', '[(0, 3) - (0, 3)]'])
    // Leaving explicitly (a null state) removes her too.
    log.length = 0
    watch(second)
    ada.awareness.setLocalState(null)
    expect(log).toEqual(['cursor 0 destroyed', 'selection 0 destroyed', 'peer removed a selection', 'cursor 1 destroyed', 'selection 1 destroyed', 'peer removed a selection', 'peer destroyed', 'removed Ada'])
  })

  it('ignores a malformed state with one warning per state, never throwing, and keeps the last good one', () => {
    network = new Network()
    const bob = network.addClient('bob', { text: 'hello' })
    const raw = network.addClient('raw', { editor: false })
    // A client with an empty state is a peer without selections.
    const peer = peerOf(bob, raw)
    expect(peer.getSelections()).toEqual([])
    const good = { anchor: { type: null, tname: 'text', item: null, assoc: -1 }, head: { type: null, tname: 'text', item: { client: bob.doc.clientID, clock: 2 }, assoc: -1 } }
    const malformed: unknown[] = [
      { cursor: 5 },
      { selections: 'all of them' },
      { selections: [good, null] },
      { user: { name: 3, color: '#fff' }, cursor: good },
      { user: 'Bob', cursor: good },
      { cursor: { anchor: good.anchor, head: { type: null, tname: 'text', item: { client: -1, clock: 0 }, assoc: -1 } } },
      { cursor: { anchor: good.anchor, head: { type: null, tname: 'text', item: { client: 1, clock: '3' }, assoc: -1 } } },
      { cursor: { anchor: good.anchor, head: { type: null, tname: null, item: null, assoc: -1 } } },
      { cursor: { anchor: good.anchor, head: { type: null, tname: 7, item: null, assoc: -1 } } },
      { cursor: { anchor: good.anchor, head: { type: null, tname: 'text', item: null, assoc: 0.5 } } },
      { cursor: good, selections: [[good]] },
    ]
    for (const state of malformed) raw.awareness.setLocalState(state as Record<string, unknown>)
    expect(bob.warnings).toHaveLength(malformed.length)
    expect(bob.warnings[0]).toBe(`Cotext collaboration: ignoring the awareness state of client ${raw.doc.clientID}: cursor is not an {anchor, head} object`)
    expect(bob.warnings[5]).toMatch(/cursor\.head\.item is not a \{client, clock\} id$/)
    expect(bob.editor!.getPeers()).toEqual([peer])
    expect(peer.getSelections()).toEqual([])
    raw.awareness.setLocalState({ cursor: good })
    expect(ranges(peer.getSelections())).toEqual(['[(0, 0) - (0, 3)]'])
    raw.awareness.setLocalState({ cursor: 'broken' })
    raw.awareness.setLocalState({ cursor: 'broken' })
    expect(bob.warnings).toHaveLength(malformed.length + 1)
    expect(bob.editor!.getPeers()).toEqual([peer])
    expect(ranges(peer.getSelections())).toEqual(['[(0, 0) - (0, 3)]'])
  })

  it('leaves out selections in another text of the document, without creating it', () => {
    network = new Network()
    const bob = network.addClient('bob', { text: 'hello' })
    const raw = network.addClient('raw', { editor: false })
    const elsewhere = { type: null, tname: 'notes', item: null, assoc: -1 }
    const here = { type: null, tname: 'text', item: null, assoc: 0 }
    raw.awareness.setLocalState({ selections: [{ anchor: elsewhere, head: elsewhere }, { anchor: here, head: here }] })
    expect(ranges(peerOf(bob, raw).getSelections())).toEqual(['[(0, 5) - (0, 5)]'])
    expect(bob.doc.share.has('notes')).toBe(false)
    expect(bob.warnings).toEqual([])
  })

  it('follows remote edits and peers in a read-only editor, and publishes its own cursor', () => {
    network = new Network()
    const ada = network.addClient('ada', { text: 'abc' })
    const reader = network.addClient('reader', { readOnly: true })
    reader.editor!.setCursorBufferPosition([0, 2])
    ada.editor!.setCursorBufferPosition([0, 1])
    ada.editor!.insertText('XY')
    expect(reader.editor!.getText()).toBe('aXYbc')
    expect(reader.editor!.getCursorBufferPosition()).toEqual(new Point(0, 4))
    expect(peerOf(reader, ada).getLastCursor()!.getBufferPosition()).toEqual(new Point(0, 3))
    expect(peerOf(ada, reader).getLastCursor()!.getBufferPosition()).toEqual(new Point(0, 4))
    expect(() => reader.editor!.insertText('no')).toThrow()
  })
})

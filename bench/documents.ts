/** Documents the benchmarks share, generated from a fixed seed so every run measures the same text. */
import * as Y from 'yjs'
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness'
import { relativePositionJSON } from '../core/collab/awareness-state.ts'

/** Code-like text: indented short lines, some hard tabs, and about one line in seven long enough to wrap at 80. */
export function codeLikeDocument(lineCount: number): string {
  let seed = 42
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return Math.floor((seed / 2147483648) * n)
  }
  const words = ['const', 'value', 'return', 'function', 'item', 'index', 'result', 'if', 'else', 'for', '=', '{', '}', '(x)', 'await']
  const lines: string[] = []
  for (let i = 0; i < lineCount; i++) {
    const indent = next(5) === 0 ? '\t' : '  '.repeat(next(4))
    const wordCount = next(7) === 0 ? 14 + next(20) : 2 + next(8)
    const parts: string[] = []
    for (let w = 0; w < wordCount; w++) parts.push(words[next(words.length)]!)
    lines.push(indent + parts.join(' '))
  }
  return lines.join('\n')
}

/** mulberry32: a seeded PRNG, so every run builds the same document and cursors. */
export function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * 900 KB of lines written by one client, then 100,000 single characters at random places inserted
 * by another, which splits the text into about 200,000 items. The places are drawn at random and
 * applied in text order (each shifted by the characters inserted before it): the same fragments as
 * a random order, without Yjs walking far through the text for every insert.
 */
export function fragmentedUpdate(random: () => number, base = 900_000, inserts = 100_000): { update: Uint8Array; items: number } {
  const author = new Y.Doc()
  author.clientID = 1
  const line = 'the quick brown fox jumps over the lazy dog, 0123456789, lorem ipsum dolor sit amet\n'
  author.getText('text').insert(0, line.repeat(Math.ceil(base / line.length)).slice(0, base))
  const doc = new Y.Doc()
  doc.clientID = 2
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(author))
  const ytext = doc.getText('text')
  const places = Array.from({ length: inserts }, () => Math.floor(random() * (base + 1))).sort((a, b) => a - b)
  places.forEach((place, i) => ytext.insert(place + i, String.fromCharCode(97 + (i % 26))))
  let items = 0
  for (let item = ytext._start; item !== null; item = item.right) items++
  return { update: Y.encodeStateAsUpdate(doc), items }
}

export function docFrom(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return doc
}

/** Awareness updates from `peers` clients, each publishing `perPeer` selections as the editor does. */
export function peerUpdates(
  update: Uint8Array,
  random: () => number,
  peers: number,
  perPeer: number,
  firstClient = 100,
): { updates: Uint8Array[]; positions: Y.RelativePosition[] } {
  const doc = docFrom(update)
  const ytext = doc.getText('text')
  const updates: Uint8Array[] = []
  const positions: Y.RelativePosition[] = []
  for (let p = 0; p < peers; p++) {
    const selections = Array.from({ length: perPeer }, () => {
      const head = Math.floor(random() * ytext.length)
      const anchor = random() < 0.5 ? head : Math.max(0, head - Math.floor(random() * 40))
      const a = Y.createRelativePositionFromTypeIndex(ytext, anchor, -1)
      const h = Y.createRelativePositionFromTypeIndex(ytext, head, -1)
      positions.push(a, h)
      return { anchor: relativePositionJSON(a), head: relativePositionJSON(h) }
    })
    const peerDoc = new Y.Doc()
    peerDoc.clientID = firstClient + p
    const awareness = new Awareness(peerDoc)
    awareness.setLocalState({ user: { name: `peer ${p}`, color: '#30bced' }, cursor: selections[selections.length - 1], selections })
    updates.push(encodeAwarenessUpdate(awareness, [peerDoc.clientID]))
    awareness.destroy()
  }
  return { updates, positions }
}

/** Lines of realistic JavaScript (functions, classes, objects, strings, comments, nesting), `${i}` numbering each copy. */
const JAVASCRIPT_BLOCK = [
  '// Compute the totals of one batch of orders.',
  'export function total${i}(orders, { discount = 0, currency = "EUR" } = {}) {',
  '  let sum = 0',
  '  for (const order of orders) {',
  '    if (order.cancelled) continue',
  '    sum += order.price * order.quantity // before tax',
  '  }',
  '  const label = `${currency} ${sum.toFixed(2)}`',
  '  return { sum: sum * (1 - discount), label, tags: ["a", \'b\', /x+y/g.test(label)] }',
  '}',
  '',
  '/* A small class with methods and a getter. */',
  'class Account${i} extends Base {',
  '  constructor(owner) { super(); this.owner = owner; this.items = [] }',
  '  add(item) { this.items.push(item); return this }',
  '  get size() { return this.items.length }',
  '}',
  'const handler${i} = async (event) => { await Promise.all([fetch(event.url), 0x1f]) }',
  '',
]

/**
 * Realistic JavaScript, the block repeated: to exactly `lines` lines (joined by '\n', none after the last),
 * or to at least `bytes` characters (every line ending in '\n').
 */
export function javascriptSource(limit: { lines: number } | { bytes: number }): string {
  const lines: string[] = []
  let length = 0
  const enough = (): boolean => ('lines' in limit ? lines.length >= limit.lines : length >= limit.bytes)
  for (let i = 0; !enough(); i++) {
    for (const line of JAVASCRIPT_BLOCK) {
      const text = line.replace(/\$\{i\}/g, String(i))
      lines.push(text)
      length += text.length + 1
      if ('lines' in limit && lines.length >= limit.lines) break
    }
  }
  return 'lines' in limit ? lines.join('\n') : lines.map((line) => line + '\n').join('')
}

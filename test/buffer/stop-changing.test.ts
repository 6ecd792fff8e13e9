import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import type { ChangeSet } from '../../core/buffer/change-set.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'

/** A manual clock: `advance(ms)` runs what falls due. */
class ManualTimer {
  now = 0
  private timers: { at: number; callback: () => void; cancelled: boolean }[] = []
  readonly schedule = (callback: () => void, delayMs: number): (() => void) => {
    const timer = { at: this.now + delayMs, callback, cancelled: false }
    this.timers.push(timer)
    return () => {
      timer.cancelled = true
    }
  }
  advance(ms: number): void {
    this.now += ms
    const due = this.timers.filter((t) => !t.cancelled && t.at <= this.now)
    this.timers = this.timers.filter((t) => !t.cancelled && t.at > this.now)
    for (const t of due) t.callback()
  }
  get waiting(): number {
    return this.timers.filter((t) => !t.cancelled).length
  }
}

describe('onDidStopChanging', () => {
  it('fires once changes pause for the delay, with every change since the last call composed', () => {
    const timer = new ManualTimer()
    const buffer = new TextBuffer({ text: 'abc', schedule: timer.schedule, stoppedChangingDelay: 300 })
    const calls: ChangeSet[] = []
    buffer.onDidStopChanging((changes) => calls.push(changes))
    buffer.insert([0, 3], 'd')
    timer.advance(200)
    buffer.insert([0, 0], 'z')
    timer.advance(200)
    expect(calls).toEqual([])
    timer.advance(100)
    expect(calls).toHaveLength(1)
    const set = calls[0]!
    expect([set.oldLength, set.newLength, set.size]).toEqual([3, 5, 2])
    expect([set.fromB(0), set.inserted(0), set.fromB(1), set.inserted(1)]).toEqual([0, 'z', 4, 'd'])
    timer.advance(1000)
    expect(calls).toHaveLength(1)
  })

  it('counts remote changes too, and schedules nothing while nobody listens', () => {
    const timer = new ManualTimer()
    const buffer = new TextBuffer({ text: 'abc', schedule: timer.schedule })
    buffer.insert([0, 0], 'x')
    expect(timer.waiting).toBe(0)
    const calls: ChangeSet[] = []
    buffer.onDidStopChanging((changes) => calls.push(changes))
    const remote = new Y.Doc()
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(buffer.doc))
    const vector = Y.encodeStateVector(buffer.doc)
    remote.getText('text').insert(4, '!')
    Y.applyUpdate(buffer.doc, Y.encodeStateAsUpdate(remote, vector))
    timer.advance(300)
    expect(calls.map((c) => [c.origin, c.inserted(0)])).toEqual([['remote', '!']])
  })

  it('never fires without a schedule (core keeps no timer), and stops with the editor', () => {
    const plain = new TextEditor({ text: 'a' })
    let fired = 0
    plain.onDidStopChanging(() => fired++)
    plain.insertText('b')
    expect(fired).toBe(0)
    const timer = new ManualTimer()
    const editor = new TextEditor({ text: 'a', schedule: timer.schedule, stoppedChangingDelay: 50 })
    editor.onDidStopChanging(() => fired++)
    editor.insertText('b')
    timer.advance(50)
    expect(fired).toBe(1)
    editor.insertText('c')
    editor.destroy()
    timer.advance(50)
    expect(fired).toBe(1)
  })

  it('refuses a bad delay or schedule, naming it', () => {
    expect(() => new TextBuffer({ stoppedChangingDelay: -1 })).toThrow('stoppedChangingDelay must be a number >= 0; got -1')
    expect(() => new TextBuffer({ schedule: 5 as never })).toThrow('schedule must be a function')
  })
})

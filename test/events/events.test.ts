import { describe, expect, it } from 'vitest'
import { CompositeDisposable, Disposable } from '../../core/events/disposable.ts'
import { Emitter } from '../../core/events/emitter.ts'

describe('Emitter', () => {
  it('calls handlers in order, stops after dispose, and supports once and preempt', () => {
    const emitter = new Emitter<{ ping: number }>()
    const seen: string[] = []
    const a = emitter.on('ping', (n) => seen.push(`a${n}`))
    emitter.once('ping', (n) => seen.push(`once${n}`))
    emitter.preempt('ping', (n) => seen.push(`first${n}`))
    emitter.emit('ping', 1)
    a.dispose()
    emitter.emit('ping', 2)
    expect(seen).toEqual(['first1', 'a1', 'once1', 'first2'])
    expect(emitter.listenerCount('ping')).toBe(1)
  })

  it('runs every handler even when one throws, then rethrows the first error', () => {
    const emitter = new Emitter<{ go: undefined }>()
    const seen: number[] = []
    emitter.on('go', () => {
      throw new Error('boom')
    })
    emitter.on('go', () => seen.push(2))
    expect(() => emitter.emit('go')).toThrow('boom')
    expect(seen).toEqual([2])
  })

  it('refuses new handlers once disposed', () => {
    const emitter = new Emitter<{ go: undefined }>()
    emitter.dispose()
    expect(() => emitter.on('go', () => {})).toThrow(/disposed/)
  })
})

describe('Disposable and CompositeDisposable', () => {
  it('runs the action once', () => {
    let count = 0
    const d = new Disposable(() => count++)
    d.dispose()
    d.dispose()
    expect(count).toBe(1)
    expect(d.disposed).toBe(true)
  })

  it('disposes every member, and members added afterwards at once', () => {
    let count = 0
    const group = new CompositeDisposable(new Disposable(() => count++), new Disposable(() => count++))
    group.dispose()
    group.add(new Disposable(() => count++))
    expect(count).toBe(3)
    expect(() => group.add({} as never)).toThrow(TypeError)
  })
})

import { Disposable } from './disposable.ts'

type Handler<T> = (value: T) => void

/**
 * A typed event emitter (Atom's event-kit `Emitter`). `EventMap` maps event names to payload types.
 * A handler that throws does not stop the others: the first error is rethrown after all have run, so
 * one bad subscriber never leaves the model half-notified.
 */
export class Emitter<EventMap extends object = Record<string, unknown>> {
  disposed = false
  private handlers = new Map<keyof EventMap, Handler<never>[]>()

  on<K extends keyof EventMap>(eventName: K, handler: Handler<EventMap[K]>): Disposable {
    if (this.disposed) throw new Error('Emitter has been disposed')
    if (typeof handler !== 'function') throw new TypeError('handler must be a function')
    const list = this.handlers.get(eventName) ?? []
    // Copy on write: emitting iterates a snapshot, so subscribing during emit is safe.
    this.handlers.set(eventName, [...list, handler as Handler<never>])
    return new Disposable(() => this.off(eventName, handler))
  }

  once<K extends keyof EventMap>(eventName: K, handler: Handler<EventMap[K]>): Disposable {
    const disposable = this.on(eventName, (value) => {
      disposable.dispose()
      handler(value)
    })
    return disposable
  }

  preempt<K extends keyof EventMap>(eventName: K, handler: Handler<EventMap[K]>): Disposable {
    if (this.disposed) throw new Error('Emitter has been disposed')
    const list = this.handlers.get(eventName) ?? []
    this.handlers.set(eventName, [handler as Handler<never>, ...list])
    return new Disposable(() => this.off(eventName, handler))
  }

  emit<K extends keyof EventMap>(eventName: K, ...args: EventMap[K] extends undefined ? [value?: EventMap[K]] : [value: EventMap[K]]): void {
    const list = this.handlers.get(eventName)
    if (!list) return
    let firstError: unknown = null
    for (const handler of list) {
      try {
        ;(handler as Handler<EventMap[K]>)(args[0] as EventMap[K])
      } catch (error) {
        firstError ??= error
      }
    }
    if (firstError !== null) throw firstError
  }

  hasListeners(eventName: keyof EventMap): boolean {
    return (this.handlers.get(eventName)?.length ?? 0) > 0
  }

  listenerCount(eventName?: keyof EventMap): number {
    if (eventName !== undefined) return this.handlers.get(eventName)?.length ?? 0
    let count = 0
    for (const list of this.handlers.values()) count += list.length
    return count
  }

  clear(): void {
    this.handlers.clear()
  }

  dispose(): void {
    this.handlers.clear()
    this.disposed = true
  }

  private off(eventName: keyof EventMap, handler: unknown): void {
    const list = this.handlers.get(eventName)
    if (!list) return
    const index = list.indexOf(handler as Handler<never>)
    if (index === -1) return
    const next = list.slice(0, index).concat(list.slice(index + 1))
    if (next.length === 0) this.handlers.delete(eventName)
    else this.handlers.set(eventName, next)
  }
}

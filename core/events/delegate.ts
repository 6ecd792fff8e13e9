/**
 * Facades forward many of Atom's methods unchanged to the part that owns them (the editor to its
 * display layer, a selection to its marker). `delegate` defines those forwarders from a list of names,
 * so the facade declares what it forwards (with `interface X extends Pick<Part, …>`) instead of
 * restating each one.
 */
export function delegate<T extends object>(prototype: T, part: (self: T) => object, names: readonly string[]): void {
  for (const name of names) {
    const forward = function (this: T, ...args: unknown[]): unknown {
      const target = part(this) as Record<string, (...a: unknown[]) => unknown>
      return target[name]!(...args)
    }
    Object.defineProperty(prototype, name, { value: forward, writable: true, configurable: true })
  }
}

/** Defines `onDidX(callback)` methods that subscribe to an emitter's events, from a map of method name to event. */
export function defineSubscriptions<T extends object>(
  prototype: T,
  emitter: (self: T) => { on(event: never, callback: never): unknown },
  events: Readonly<Record<string, string>>,
): void {
  for (const [name, event] of Object.entries(events)) {
    const subscribe = function (this: T, callback: unknown): unknown {
      return (emitter(this) as { on(event: string, callback: unknown): unknown }).on(event, callback)
    }
    Object.defineProperty(prototype, name, { value: subscribe, writable: true, configurable: true })
  }
}

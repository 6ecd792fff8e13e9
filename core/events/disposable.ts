/** Anything with a `dispose()` method. */
export interface DisposableLike {
  dispose(): void
}

/** Runs an action once, when disposed (Atom's event-kit `Disposable`). */
export class Disposable implements DisposableLike {
  disposed = false
  private action: (() => void) | null

  constructor(action?: () => void) {
    this.action = action ?? null
  }

  static isDisposable(object: unknown): object is DisposableLike {
    return object !== null && typeof object === 'object' && typeof (object as DisposableLike).dispose === 'function'
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    const action = this.action
    this.action = null
    action?.()
  }
}

/** Disposes a group of disposables together; ones added after disposal are disposed at once. */
export class CompositeDisposable implements DisposableLike {
  disposed = false
  private readonly disposables = new Set<DisposableLike>()

  constructor(...disposables: DisposableLike[]) {
    this.add(...disposables)
  }

  add(...disposables: DisposableLike[]): void {
    for (const disposable of disposables) {
      if (!Disposable.isDisposable(disposable)) throw new TypeError('CompositeDisposable.add: argument must have a dispose() method')
      if (this.disposed) disposable.dispose()
      else this.disposables.add(disposable)
    }
  }

  remove(disposable: DisposableLike): void {
    this.disposables.delete(disposable)
  }

  delete(disposable: DisposableLike): void {
    this.remove(disposable)
  }

  clear(): void {
    this.disposables.clear()
  }

  get size(): number {
    return this.disposables.size
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    const all = [...this.disposables]
    this.disposables.clear()
    for (const disposable of all) disposable.dispose()
  }
}

/** What the batcher needs of a socket: net.Socket's cork and uncork. */
export interface Corkable {
  cork(): void
  uncork(): void
}

/**
 * Holds back a socket's writes until the end of the current event-loop turn, so that all the
 * messages one client is sent in that turn leave in one system call instead of one each. A
 * broadcast costs a write per client per message otherwise; when the server falls behind and
 * handles many frames in one turn, this turns that backlog into few large writes, which is
 * where tail latency is won. Nothing waits longer than the turn it was sent in.
 */
export class WriteBatcher {
  private held: Corkable[] = []
  private readonly heldSet = new Set<Corkable>()
  private scheduled = false

  /** Corks `socket` (once per turn) and schedules the uncork. */
  hold(socket: Corkable): void {
    if (this.heldSet.has(socket)) return
    this.heldSet.add(socket)
    this.held.push(socket)
    socket.cork()
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(this.release)
    }
  }

  private readonly release = (): void => {
    const sockets = this.held
    this.held = []
    this.heldSet.clear()
    this.scheduled = false
    for (const socket of sockets) socket.uncork()
  }
}

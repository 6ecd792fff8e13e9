import type { WebsocketProvider } from 'y-websocket'

/**
 * The connection state the page shows at all times: `connected`; `connecting` (the first attempts);
 * `offline` (the browser is offline, the server could not be reached twice in a row, or it refused
 * us for good). Unless refused, the provider keeps retrying with exponential backoff (capped at 2.5 s)
 * and the state turns `connected` as soon as one attempt succeeds. While the browser is offline the
 * provider is paused, and it resumes when the browser says it is back online.
 */

export type ConnectionState = 'connected' | 'connecting' | 'offline'

export interface ConnectionFacts {
  /** The provider's last status event. */
  status: 'connected' | 'connecting' | 'disconnected'
  /** navigator.onLine */
  online: boolean
  /** Set when the server closed with a permanent code (4400-4499): why. */
  refusal: string | null
  /** Attempts that failed or dropped since the last successful connection. */
  failures: number
}

/** Failed attempts in a row after which the server counts as unreachable. */
export const FAILURES_BEFORE_OFFLINE = 2

/** The state to show for these facts (a pure function, so every combination is easy to test). */
export function connectionStateFor(facts: ConnectionFacts): ConnectionState {
  if (facts.status === 'connected') return 'connected'
  if (!facts.online || facts.refusal !== null || facts.failures >= FAILURES_BEFORE_OFFLINE) return 'offline'
  return 'connecting'
}

/** Why we are offline, or what we are waiting for, in a few words for a tooltip. */
export function connectionDetailFor(facts: ConnectionFacts, synced: boolean): string {
  if (facts.status === 'connected') return synced ? 'connected; in sync with the server' : 'connected; syncing'
  if (facts.refusal !== null) return `the server refused the connection: ${facts.refusal}`
  if (!facts.online) return 'the browser is offline; edits are kept here and sent on reconnect'
  if (facts.failures >= FAILURES_BEFORE_OFFLINE) return 'the server cannot be reached; retrying; edits are kept here and sent on reconnect'
  return 'connecting to the server; edits are kept here and sent on reconnect'
}

type Listener = (state: ConnectionState, detail: string) => void

export class ConnectionMonitor {
  private facts: ConnectionFacts
  private synced = false
  private readonly listeners = new Set<Listener>()
  private readonly cleanups: (() => void)[] = []

  constructor(provider: WebsocketProvider, win: Window) {
    this.facts = {
      status: provider.wsconnected ? 'connected' : 'connecting',
      online: win.navigator.onLine,
      refusal: null,
      failures: 0,
    }
    const onStatus = ({ status }: { status: ConnectionFacts['status'] }): void =>
      this.update(status === 'connected' ? { status, failures: 0 } : { status })
    const onClose = (): void => this.update({ failures: this.facts.failures + 1 })
    const onClosed = ({ code, reason }: { code: number; reason: string }): void => this.update({ refusal: `${code} ${reason || 'refused'}` })
    const onSync = (synced: boolean): void => {
      this.synced = synced
      this.emit()
    }
    provider.on('status', onStatus)
    provider.on('closed', onClosed)
    provider.on('connection-close', onClose)
    provider.on('sync', onSync)
    const onOffline = (): void => {
      provider.disconnect()
      this.update({ online: false, status: 'disconnected' })
    }
    const onOnline = (): void => {
      this.update({ online: true, failures: 0 })
      if (this.facts.refusal === null) provider.connect()
    }
    win.addEventListener('offline', onOffline)
    win.addEventListener('online', onOnline)
    if (!this.facts.online) provider.disconnect()
    this.cleanups.push(
      () => provider.off('status', onStatus),
      () => provider.off('closed', onClosed),
      () => provider.off('connection-close', onClose),
      () => provider.off('sync', onSync),
      () => win.removeEventListener('offline', onOffline),
      () => win.removeEventListener('online', onOnline),
    )
  }

  getState(): ConnectionState {
    return connectionStateFor(this.facts)
  }

  getDetail(): string {
    return connectionDetailFor(this.facts, this.synced)
  }

  onDidChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  dispose(): void {
    for (const cleanup of this.cleanups) cleanup()
    this.listeners.clear()
  }

  private update(change: Partial<ConnectionFacts>): void {
    this.facts = { ...this.facts, ...change }
    this.emit()
  }

  private emit(): void {
    const state = this.getState()
    const detail = this.getDetail()
    for (const listener of this.listeners) listener(state, detail)
  }
}

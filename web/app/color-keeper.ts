import type { Awareness } from 'y-protocols/awareness'
import { distinctColor, type ColorHolder } from '../view/colors.ts'
import { normalizeColor, type UserIdentity } from './user.ts'

/**
 * Keeps the local user's colour one nobody else in the room has, unless they picked it themselves:
 * whenever the room's awareness changes, the published colour is checked against everyone else's
 * (web/view/colors.ts decides who moves) and republished when it must change. Peers publish
 * `user.colorChosen` so an automatic colour gives way to a chosen one. Returns a stop function.
 */
export function keepColorDistinct(awareness: Awareness, currentUser: () => UserIdentity, publish: (color: string) => void): () => void {
  const check = (): void => {
    const user = currentUser()
    if (user.colorChosen) return
    const published = readHolder(awareness.clientID, awareness.getLocalState())
    if (published === null) return
    const others: ColorHolder[] = []
    for (const [clientId, state] of awareness.getStates()) {
      if (clientId === awareness.clientID) continue
      const holder = readHolder(clientId, state)
      if (holder !== null) others.push(holder)
    }
    const next = distinctColor({ ...published, chosen: false }, others)
    if (next !== published.color) publish(next)
  }
  // Our own cursor moves change our state on every keystroke: only others' changes (or our user) matter.
  const onChange = ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }): void => {
    if ([...added, ...updated, ...removed].some((id) => id !== awareness.clientID) || added.includes(awareness.clientID)) check()
  }
  awareness.on('change', onChange)
  check()
  return () => awareness.off('change', onChange)
}

function readHolder(clientId: number, state: Record<string, unknown> | null | undefined): ColorHolder | null {
  const user = state?.user
  if (user === null || typeof user !== 'object') return null
  const { color, colorChosen } = user as { color?: unknown; colorChosen?: unknown }
  const normalized = normalizeColor(color)
  return normalized === null ? null : { clientId, color: normalized, chosen: colorChosen === true }
}

import { PALETTE } from '../view/colors.ts'

/**
 * Who the local user is: a name and a colour, chosen at random on the first visit ("Brave Otter"),
 * remembered in localStorage and editable. `?name=` and `?color=` in the page URL override the
 * remembered identity (scripts and tests open several users in one browser that way).
 */

export interface UserIdentity {
  name: string
  color: string
  /** The person picked the colour (the colour input, `?color=`): the page never changes it for them. */
  colorChosen: boolean
}

const STORAGE_KEY = 'cotext.user'
const MAX_NAME_LENGTH = 40

const ADJECTIVES = ['Brave', 'Calm', 'Clever', 'Curious', 'Eager', 'Gentle', 'Happy', 'Jolly', 'Kind', 'Lively', 'Lucky', 'Merry', 'Nimble', 'Quiet', 'Swift', 'Witty']
const ANIMALS = ['Otter', 'Fox', 'Heron', 'Lynx', 'Panda', 'Robin', 'Seal', 'Badger', 'Koala', 'Falcon', 'Beaver', 'Owl', 'Puffin', 'Marten', 'Gecko', 'Wren']

/** Colours chosen for distinctness that read well as a 2px cursor on white (web/view/colors.ts). */
export const USER_COLORS: readonly string[] = PALETTE

export function randomUser(random: () => number = Math.random): UserIdentity {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length) % list.length]!
  return { name: `${pick(ADJECTIVES)} ${pick(ANIMALS)}`, color: pick(USER_COLORS), colorChosen: false }
}

/** A colour CSS can use everywhere we paint with it: `#rgb` or `#rrggbb`, lower-cased; null otherwise. */
export function normalizeColor(color: unknown): string | null {
  if (typeof color !== 'string') return null
  const value = color.trim().toLowerCase()
  if (/^#[0-9a-f]{6}$/.test(value)) return value
  if (/^#[0-9a-f]{3}$/.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`
  return null
}

export function normalizeName(name: unknown): string | null {
  if (typeof name !== 'string') return null
  const value = name.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH)
  return value === '' ? null : value
}

interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

/** The remembered identity (or a new random one, remembered), with URL overrides applied and remembered. */
export function loadUser(storage: KeyValueStore, params: URLSearchParams, random: () => number = Math.random): UserIdentity {
  let stored: Partial<UserIdentity> = {}
  try {
    stored = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}') as Partial<UserIdentity>
  } catch {
    // A damaged entry is replaced by a fresh identity below.
  }
  const fallback = randomUser(random)
  const linkColor = normalizeColor(params.get('color'))
  const storedColor = normalizeColor(stored.color)
  const user: UserIdentity = {
    name: normalizeName(params.get('name')) ?? normalizeName(stored.name) ?? fallback.name,
    color: linkColor ?? storedColor ?? fallback.color,
    colorChosen: linkColor !== null || (storedColor !== null && stored.colorChosen === true),
  }
  saveUser(storage, user)
  return user
}

export function saveUser(storage: KeyValueStore, user: UserIdentity): void {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify({ name: user.name, color: user.color, colorChosen: user.colorChosen }))
  } catch {
    // Storage can be full or disabled (private windows); the identity then lasts for this page only.
  }
}

/** `#rrggbb` plus an alpha, for selection backgrounds in a peer's colour. */
export function withAlpha(color: string, alpha: number): string {
  const hex = normalizeColor(color) ?? '#888888'
  const a = Math.round(Math.max(0, Math.min(1, alpha)) * 255)
  return `${hex}${a.toString(16).padStart(2, '0')}`
}

import { describe, expect, it } from 'vitest'
import { USER_COLORS, loadUser, normalizeColor, normalizeName, randomUser, withAlpha } from '../../web/app/user.ts'
import { Random } from '../helpers/random.ts'

class MemoryStorage {
  readonly items = new Map<string, string>()
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value)
  }
}

describe('the local user', () => {
  it('gets a friendly random name and one of the palette colours', () => {
    const user = randomUser(() => 0)
    expect(user).toEqual({ name: 'Brave Otter', color: USER_COLORS[0], colorChosen: false })
    const last = randomUser(() => 0.999)
    expect(last).toEqual({ name: 'Witty Wren', color: USER_COLORS[USER_COLORS.length - 1], colorChosen: false })
  })

  it('is chosen on the first visit and remembered after', () => {
    const storage = new MemoryStorage()
    const first = loadUser(storage, new URLSearchParams(), () => 0.5)
    expect(JSON.parse(storage.getItem('cotext.user')!)).toEqual(first)
    const again = loadUser(storage, new URLSearchParams(), () => 0)
    expect(again).toEqual(first)
  })

  it('takes ?name= and ?color= from the URL and remembers them', () => {
    const storage = new MemoryStorage()
    const user = loadUser(storage, new URLSearchParams('name=%20Ada%20%20L%20&color=%23ABC'), () => 0)
    expect(user).toEqual({ name: 'Ada L', color: '#aabbcc', colorChosen: true })
    expect(loadUser(storage, new URLSearchParams(), () => 0.7)).toEqual(user)
  })

  it('replaces a damaged or invalid stored identity', () => {
    const storage = new MemoryStorage()
    storage.setItem('cotext.user', '{not json')
    expect(loadUser(storage, new URLSearchParams(), () => 0)).toEqual({ name: 'Brave Otter', color: USER_COLORS[0], colorChosen: false })
    storage.setItem('cotext.user', JSON.stringify({ name: '   ', color: 'red; background: url(x)' }))
    expect(loadUser(storage, new URLSearchParams(), () => 0)).toEqual({ name: 'Brave Otter', color: USER_COLORS[0], colorChosen: false })
  })

  it('normalises names and colours', () => {
    expect(normalizeName('x'.repeat(60))).toBe('x'.repeat(40))
    expect(normalizeName(42)).toBeNull()
    expect(normalizeColor('#D81B60')).toBe('#d81b60')
    expect(normalizeColor('rgb(1,2,3)')).toBeNull()
    expect(withAlpha('#d81b60', 0.25)).toBe('#d81b6040')
    expect(withAlpha('nonsense', 1)).toBe('#888888ff')
  })

  it('spreads random identities over the palette', () => {
    const random = new Random(7)
    const colors = new Set(Array.from({ length: 200 }, () => randomUser(() => random.next()).color))
    expect(colors.size).toBe(USER_COLORS.length)
  })
})

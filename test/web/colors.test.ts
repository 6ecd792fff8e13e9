import { describe, expect, it } from 'vitest'
import { contrastRatio, distinctColor, PALETTE, textColorOn } from '../../web/view/colors.ts'
import { Random } from '../helpers/random.ts'

describe('people colours', () => {
  it('computes WCAG contrast', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
  })

  it('labels every colour with text at 4.5:1 or more, palette or picked', () => {
    for (const color of PALETTE) expect(contrastRatio(color, textColorOn(color)), color).toBeGreaterThanOrEqual(4.5)
    const random = new Random(7)
    for (let i = 0; i < 2000; i++) {
      const color = `#${Math.floor(random.next() * 0x1000000).toString(16).padStart(6, '0')}`
      expect(contrastRatio(color, textColorOn(color)), color).toBeGreaterThanOrEqual(4.5)
    }
    expect(textColorOn('#c0ca33')).toBe('#000000')
    expect(textColorOn('#000075')).toBe('#ffffff')
  })

  it('gives automatically coloured users colours nobody else in the room has', () => {
    const auto = (clientId: number, color: string) => ({ clientId, color, chosen: false })
    expect(distinctColor(auto(5, '#e6194b'), [auto(3, '#3cb44b')])).toBe('#e6194b')
    expect(distinctColor(auto(5, '#e6194b'), [auto(3, '#e6194b'), auto(4, '#3cb44b')])).toBe('#4363d8')
    // The earlier of two automatic users keeps the colour.
    expect(distinctColor(auto(3, '#e6194b'), [auto(5, '#e6194b')])).toBe('#e6194b')
    // Someone's own choice wins over an automatic colour, whatever the ids.
    expect(distinctColor(auto(3, '#e6194b'), [{ clientId: 9, color: '#E6194B', chosen: true }])).toBe('#3cb44b')
    expect(distinctColor({ clientId: 9, color: '#e6194b', chosen: true }, [auto(3, '#e6194b')])).toBe('#e6194b')
  })

  it('settles a room of twelve automatic users on twelve colours', () => {
    const random = new Random(21)
    const users = Array.from({ length: 12 }, (_, i) => ({ clientId: 100 + i, color: PALETTE[Math.floor(random.next() * 3)]!, chosen: false }))
    for (let round = 0; round < 12; round++) {
      for (const user of users) user.color = distinctColor(user, users.filter((other) => other !== user))
    }
    expect(new Set(users.map((user) => user.color)).size).toBe(12)
  })
})

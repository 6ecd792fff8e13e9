/**
 * Colours for people: a palette chosen for distinctness (from Sasha Trubetskoy's list of 20 distinct
 * colours, keeping the ones that show as a 2 px cursor on white), and label text in black or white,
 * whichever contrasts more with the label's colour: for any colour one of them reaches at least
 * 4.58:1 (WCAG AA asks 4.5:1), so every name label is readable, whatever colour a user picks.
 */

export const PALETTE: readonly string[] = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#469990', '#808000', '#000075', '#800000']

/** WCAG relative luminance of `#rrggbb`. */
export function luminance(hex: string): number {
  const channel = (offset: number): number => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** Black or white, whichever reads better on `background` (`#rrggbb`). */
export function textColorOn(background: string): '#000000' | '#ffffff' {
  if (!/^#[0-9a-fA-F]{6}$/.test(background)) return '#ffffff'
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff'
}

export interface ColorHolder {
  clientId: number
  color: string
  /** The person picked this colour themselves: it is never changed for them. */
  chosen: boolean
}

/**
 * The colour an automatically coloured user should show so nobody else in the room shares it: their
 * own while it is unique; on a clash, the first palette colour nobody else has. Of two automatic
 * users that clash, only the later one (higher client id) moves, so the room settles in one step;
 * a clash with someone's own choice always moves the automatic user.
 */
export function distinctColor(self: ColorHolder, others: readonly ColorHolder[]): string {
  if (self.chosen) return self.color
  const own = self.color.toLowerCase()
  const mustMove = others.some((other) => other.color.toLowerCase() === own && (other.chosen || other.clientId < self.clientId))
  if (!mustMove) return self.color
  const taken = new Set(others.map((other) => other.color.toLowerCase()))
  return PALETTE.find((color) => !taken.has(color)) ?? self.color
}

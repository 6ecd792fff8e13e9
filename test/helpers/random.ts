/** A small seeded PRNG (mulberry32) so that every fuzz failure can be replayed from its seed. */
export class Random {
  private state: number

  constructor(readonly seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  bool(p = 0.5): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }

  /** A short random string drawn from `alphabet`. */
  string(maxLength: number, alphabet: readonly string[]): string {
    let out = ''
    const length = this.int(maxLength + 1)
    for (let i = 0; i < length; i++) out += this.pick(alphabet)
    return out
  }
}

/**
 * Seeds for a fuzz run: FUZZ_SEED pins one, FUZZ_RUNS asks for more (for a long local hunt),
 * otherwise a fixed list so runs are reproducible.
 */
export function fuzzSeeds(count: number, base = 1): number[] {
  const env = typeof process !== 'undefined' ? process.env : {}
  if (env.FUZZ_SEED) return [Number(env.FUZZ_SEED)]
  const runs = Number(env.FUZZ_RUNS) || count
  return Array.from({ length: runs }, (_, i) => base + i * 7919)
}

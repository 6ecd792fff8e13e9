/*
 * Keeping a regular expression from freezing its caller. JavaScript cannot interrupt a running
 * `exec`, so a pattern that backtracks exponentially (`(a+)+$` on a long run of `a`s) can only be
 * kept bounded by never handing it a long input before knowing how it behaves on a short one. A
 * pattern that can backtrack badly (a quantified group that itself holds a quantifier or an
 * alternation, or a backreference) is therefore run on growing prefixes of its input, each timed;
 * the next prefix is chosen so that the predicted time stays within what is left of the budget, and
 * the search stops with "too slow" when even one more character would not fit. Other patterns run on
 * their input directly: V8's engine is at worst polynomial on them, and the scan's slices bound the
 * input of each call.
 */

/** What a search may spend: a clock (milliseconds) and how much of it. Core starts no timer. */
export interface ScanBudget {
  /** The clock, in milliseconds. Default: `performance.now`. */
  now?: () => number
  /** Milliseconds the whole search may take before it stops with "too slow". Default 250. */
  timeLimit?: number
}

/** Thrown (before anything changed) when a search ran out of its budget. */
export class ScanTooSlowError extends Error {
  constructor(readonly pattern: string, readonly timeLimit: number) {
    super(`The search for /${pattern}/ is too slow: it took more than ${timeLimit} ms and was stopped`)
    this.name = 'ScanTooSlowError'
  }
}

/** Stands for "the input goes on here": no pattern of a user matches it, and `$` cannot match before it. */
export const INPUT_GOES_ON = '\u0000'

const DEFAULT_TIME_LIMIT = 250
const FIRST_PROBE = 8
/** A probe faster than this (ms) says nothing about the growth rate (timers may be coarse). */
const MEASURABLE = 0.2

/** The high-resolution clock both browsers and Node have (core is typed without either's library). */
const clock = (globalThis as { performance?: { now(): number } }).performance

function defaultNow(): number {
  return clock ? clock.now() : Date.now()
}

/** A running budget: the clock, the deadline, and the time one more call may take. */
export class Deadline {
  readonly now: () => number
  readonly timeLimit: number
  private readonly started: number
  exceeded = false

  constructor(budget: ScanBudget = {}) {
    this.now = budget.now ?? defaultNow
    this.timeLimit = budget.timeLimit ?? DEFAULT_TIME_LIMIT
    this.started = this.now()
  }

  /** Milliseconds left; marks the deadline exceeded when none are. */
  remaining(): number {
    const left = this.timeLimit - (this.now() - this.started)
    if (left <= 0) this.exceeded = true
    return left
  }
}

/**
 * True when `source` may backtrack exponentially: a quantified group whose body has a quantifier or
 * an alternation (`(a+)+`, `(a|aa)*`, `(\w+\s?)*`), or a backreference.
 */
export function mayBacktrackBadly(source: string): boolean {
  // Per open group: whether its body holds a quantifier or an alternation.
  const groups: boolean[] = []
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      if (!inClass && /[1-9k]/.test(next)) return true
      i++
      continue
    }
    if (inClass) {
      if (c === ']') inClass = false
      continue
    }
    if (c === '[') inClass = true
    else if (c === '(') groups.push(false)
    else if (c === '|' && groups.length > 0) groups[groups.length - 1] = true
    else if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\d*\}/.test(source.slice(i)))) {
      if (groups.length > 0) groups[groups.length - 1] = true
    } else if (c === ')') {
      const inner = groups.pop() ?? false
      const after = source[i + 1] ?? ''
      const quantified = after === '*' || after === '+' || (after === '{' && /^\{\d+,\d*\}/.test(source.slice(i + 1)))
      if (inner && quantified) return true
      if (groups.length > 0 && (inner || quantified)) groups[groups.length - 1] = true
    }
  }
  return false
}

/**
 * `pattern.exec(text)` from `from`, for a pattern that may backtrack badly: probes growing prefixes of
 * `text` (cut with INPUT_GOES_ON) and times each, so that no call runs much longer than the budget
 * allows. Returns the match (null for none), or `undefined` when the budget ran out.
 *
 * A probe that finds a match ending well inside its prefix is taken as the answer: a longer input
 * could only change it through a lookahead reaching past the cut, or an earlier start that needs the
 * longer input, which the growing probes of the earlier positions would have met.
 */
export function guardedExec(pattern: RegExp, text: string, from: number, deadline: Deadline): RegExpExecArray | null | undefined {
  // Context before `from` is kept short, so that a probe costs its own length, not the row's.
  const base = Math.max(0, from - 64)
  let size = FIRST_PROBE
  let lastSize = 0
  let lastTime = 0
  let steepest = 0
  for (;;) {
    const cut = Math.min(text.length, from + size)
    const whole = cut === text.length
    const input = whole && base === 0 ? text : whole ? text.slice(base) : text.slice(base, cut) + INPUT_GOES_ON
    pattern.lastIndex = from - base
    const started = deadline.now()
    const match = pattern.exec(input)
    const took = deadline.now() - started
    const left = deadline.remaining()
    if (match !== null) {
      match.index += base
      const end = match.index + match[0].length
      if (whole || end < cut - (size >> 2)) return match
    } else if (whole) return null
    if (left <= 0) return undefined
    // The next prefix: a quarter longer while probes are too fast to measure (a doubling could turn
    // 2^16 steps into 2^32); otherwise as many more characters as the growth seen so far (taken as
    // exponential) lets fit in a sixteenth of what is left.
    let next: number
    if (took < MEASURABLE) next = size + Math.max(4, size >> 2)
    else if (lastTime < MEASURABLE) next = size + Math.max(1, size >> 3)
    else {
      // The steepest growth seen so far, so that one noisy step does not make the next one reckless.
      steepest = Math.max(steepest, Math.log(Math.max(took / lastTime, 1.0001)) / Math.max(1, size - lastSize))
      const room = Math.log(left / 16 / took)
      if (room <= 0) {
        deadline.exceeded = true
        return undefined
      }
      next = size + Math.max(1, Math.min(size, Math.floor(room / steepest)))
    }
    lastSize = size
    lastTime = took
    size = next
  }
}

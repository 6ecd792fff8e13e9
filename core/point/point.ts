/** A point-like value: a `Point`, `[row, column]` or `{row, column}`. */
export type PointLike = Point | readonly [number, number] | readonly [number] | { readonly row: number; readonly column: number }

/**
 * An immutable zero-based (row, column) position, as Atom's text-buffer `Point`.
 * Columns count UTF-16 code units. Infinity is allowed, as in Atom, for "end of row" or "end of buffer".
 */
export class Point {
  readonly row: number
  readonly column: number

  static readonly ZERO = new Point(0, 0)
  static readonly INFINITY = new Point(Infinity, Infinity)

  constructor(row = 0, column = 0) {
    this.row = row
    this.column = column
    Object.freeze(this)
  }

  /** Converts a point-like value; throws a TypeError naming `name` when it is not one. */
  static fromObject(object: PointLike, copy = false, name = 'point'): Point {
    if (object instanceof Point) return copy ? object.copy() : object
    if (Array.isArray(object)) {
      const [row, column] = object as readonly unknown[]
      if (object.length === 2 && typeof row === 'number' && typeof column === 'number') return new Point(row, column)
      // Atom reads a missing column as 0: [9] is (9, 0).
      if (object.length === 1 && typeof row === 'number') return new Point(row, 0)
    } else if (object !== null && typeof object === 'object') {
      const { row, column } = object as { row: unknown; column: unknown }
      if (typeof row === 'number' && typeof column === 'number') return new Point(row, column)
    }
    throw new TypeError(`${name} must be a Point, [row, column] or {row, column}; got ${describe(object)}`)
  }

  static min(a: PointLike, b: PointLike): Point {
    const pa = Point.fromObject(a)
    const pb = Point.fromObject(b)
    return pa.isLessThanOrEqual(pb) ? pa : pb
  }

  static max(a: PointLike, b: PointLike): Point {
    const pa = Point.fromObject(a)
    const pb = Point.fromObject(b)
    return pa.isGreaterThanOrEqual(pb) ? pa : pb
  }

  /** Throws Atom's `Invalid Point: (row, column)` TypeError when a coordinate is NaN (Infinity is valid: it clips). */
  static assertValid(point: Point): void {
    if (Number.isNaN(point.row) || Number.isNaN(point.column)) throw new TypeError(`Invalid Point: ${point.toString()}`)
  }

  static isPointLike(object: unknown): object is PointLike {
    if (object instanceof Point) return true
    if (Array.isArray(object)) return typeof object[0] === 'number' && (object.length === 1 || (object.length === 2 && typeof object[1] === 'number'))
    if (object === null || typeof object !== 'object') return false
    const { row, column } = object as { row: unknown; column: unknown }
    return typeof row === 'number' && typeof column === 'number'
  }

  copy(): Point {
    return new Point(this.row, this.column)
  }

  negate(): Point {
    return new Point(-this.row, -this.column)
  }

  freeze(): this {
    return this
  }

  /** Adds row and column deltas independently. */
  translate(other: PointLike): Point {
    const { row, column } = Point.fromObject(other)
    return new Point(this.row + row, this.column + column)
  }

  /** Moves by a text extent: a non-zero row delta resets the column to the delta's column. */
  traverse(other: PointLike): Point {
    const delta = Point.fromObject(other)
    return delta.row === 0 ? new Point(this.row, this.column + delta.column) : new Point(this.row + delta.row, delta.column)
  }

  /** The extent that traverses `other` to this point. */
  traversalFrom(other: PointLike): Point {
    const from = Point.fromObject(other)
    return this.row === from.row
      ? new Point(0, this.column === Infinity && from.column === Infinity ? 0 : this.column - from.column)
      : new Point(this.row - from.row, this.column)
  }

  splitAt(column: number): [Point, Point] {
    if (this.row === 0) return [new Point(0, column), new Point(0, this.column - column)]
    return [new Point(0, column), new Point(this.row, this.column)]
  }

  compare(other: PointLike): -1 | 0 | 1 {
    const { row, column } = Point.fromObject(other)
    if (this.row > row) return 1
    if (this.row < row) return -1
    if (this.column > column) return 1
    if (this.column < column) return -1
    return 0
  }

  isEqual(other: PointLike): boolean {
    if (other == null) return false
    const { row, column } = Point.fromObject(other)
    return this.row === row && this.column === column
  }

  isLessThan(other: PointLike): boolean {
    return this.compare(other) < 0
  }

  isLessThanOrEqual(other: PointLike): boolean {
    return this.compare(other) <= 0
  }

  isGreaterThan(other: PointLike): boolean {
    return this.compare(other) > 0
  }

  isGreaterThanOrEqual(other: PointLike): boolean {
    return this.compare(other) >= 0
  }

  isZero(): boolean {
    return this.row === 0 && this.column === 0
  }

  isPositive(): boolean {
    return this.row > 0 || (this.row === 0 && this.column > 0)
  }

  isNegative(): boolean {
    return this.row < 0 || (this.row === 0 && this.column < 0)
  }

  toArray(): [number, number] {
    return [this.row, this.column]
  }

  serialize(): [number, number] {
    return this.toArray()
  }

  toString(): string {
    return `(${this.row}, ${this.column})`
  }
}

export function describe(value: unknown): string {
  if (value === undefined) return 'undefined'
  try {
    const json = JSON.stringify(value)
    return json === undefined ? String(value) : json.length > 80 ? `${json.slice(0, 77)}...` : json
  } catch {
    return Object.prototype.toString.call(value)
  }
}

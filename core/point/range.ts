import { Point, describe, type PointLike } from './point.ts'

/** A range-like value: a `Range`, `[start, end]` of point-likes, or `{start, end}`. */
export type RangeLike = Range | readonly [PointLike, PointLike] | { readonly start: PointLike; readonly end: PointLike }

/** An immutable range between two points, normalised so that `start <= end`, as Atom's `Range`. */
export class Range {
  readonly start: Point
  readonly end: Point

  constructor(pointA: PointLike = Point.ZERO, pointB: PointLike = Point.ZERO) {
    const a = Point.fromObject(pointA)
    const b = Point.fromObject(pointB)
    if (a.isLessThanOrEqual(b)) {
      this.start = a
      this.end = b
    } else {
      this.start = b
      this.end = a
    }
    Object.freeze(this)
  }

  /** Converts a range-like value; throws a TypeError naming `name` when it is not one. */
  static fromObject(object: RangeLike, copy = false, name = 'range'): Range {
    if (object instanceof Range) return copy ? object.copy() : object
    if (Array.isArray(object)) {
      if (object.length === 2 && Point.isPointLike(object[0]) && Point.isPointLike(object[1])) {
        return new Range(object[0], object[1])
      }
    } else if (object !== null && typeof object === 'object') {
      const { start, end } = object as { start: unknown; end: unknown }
      if (Point.isPointLike(start) && Point.isPointLike(end)) return new Range(start, end)
    }
    throw new TypeError(`${name} must be a Range, [[row, column], [row, column]] or {start, end}; got ${describe(object)}`)
  }

  static isRangeLike(object: unknown): object is RangeLike {
    if (object instanceof Range) return true
    if (Array.isArray(object)) return object.length === 2 && Point.isPointLike(object[0]) && Point.isPointLike(object[1])
    if (object === null || typeof object !== 'object') return false
    const { start, end } = object as { start: unknown; end: unknown }
    return Point.isPointLike(start) && Point.isPointLike(end)
  }

  /** A range starting at `start` and spanning the given extent. */
  static fromPointWithDelta(start: PointLike, rowDelta: number, columnDelta: number): Range {
    const p = Point.fromObject(start)
    return new Range(p, new Point(p.row + rowDelta, p.column + columnDelta))
  }

  static fromText(start: PointLike, text: string): Range {
    const p = Point.fromObject(start)
    const lines = text.split(/\r\n|\r|\n/)
    const last = lines[lines.length - 1]!
    if (lines.length === 1) return new Range(p, new Point(p.row, p.column + last.length))
    return new Range(p, new Point(p.row + lines.length - 1, last.length))
  }

  copy(): Range {
    return new Range(this.start.copy(), this.end.copy())
  }

  negate(): Range {
    return new Range(this.start.negate(), this.end.negate())
  }

  freeze(): this {
    return this
  }

  isEqual(other: RangeLike): boolean {
    if (other == null) return false
    const r = Range.fromObject(other)
    return this.start.isEqual(r.start) && this.end.isEqual(r.end)
  }

  /** Orders by start, then by end (a longer range after a shorter one with the same start). */
  compare(other: RangeLike): -1 | 0 | 1 {
    const r = Range.fromObject(other)
    const byStart = this.start.compare(r.start)
    return byStart !== 0 ? byStart : this.end.compare(r.end)
  }

  isEmpty(): boolean {
    return this.start.isEqual(this.end)
  }

  isSingleLine(): boolean {
    return this.start.row === this.end.row
  }

  getRowCount(): number {
    return this.end.row - this.start.row + 1
  }

  getRows(): number[] {
    const rows: number[] = []
    for (let row = this.start.row; row <= this.end.row; row++) rows.push(row)
    return rows
  }

  getExtent(): Point {
    return this.end.traversalFrom(this.start)
  }

  containsPoint(point: PointLike, exclusive = false): boolean {
    const p = Point.fromObject(point)
    return exclusive
      ? p.isGreaterThan(this.start) && p.isLessThan(this.end)
      : p.isGreaterThanOrEqual(this.start) && p.isLessThanOrEqual(this.end)
  }

  containsRange(other: RangeLike, exclusive = false): boolean {
    const { start, end } = Range.fromObject(other)
    return this.containsPoint(start, exclusive) && this.containsPoint(end, exclusive)
  }

  /** True when the two ranges share at least a point (touching counts unless `exclusive`). */
  intersectsWith(other: RangeLike, exclusive = false): boolean {
    const r = Range.fromObject(other)
    return exclusive
      ? !(r.end.isLessThanOrEqual(this.start) || r.start.isGreaterThanOrEqual(this.end))
      : !(r.end.isLessThan(this.start) || r.start.isGreaterThan(this.end))
  }

  intersectsRow(row: number): boolean {
    return this.start.row <= row && row <= this.end.row
  }

  intersectsRowRange(startRow: number, endRow: number): boolean {
    const lo = Math.min(startRow, endRow)
    const hi = Math.max(startRow, endRow)
    return this.end.row >= lo && this.start.row <= hi
  }

  union(other: RangeLike): Range {
    const r = Range.fromObject(other)
    return new Range(Point.min(this.start, r.start), Point.max(this.end, r.end))
  }

  translate(startDelta: PointLike, endDelta: PointLike = startDelta): Range {
    return new Range(this.start.translate(startDelta), this.end.translate(endDelta))
  }

  traverse(delta: PointLike): Range {
    return new Range(this.start.traverse(delta), this.end.traverse(delta))
  }

  toDelta(): Point {
    const rows = this.end.row - this.start.row
    return new Point(rows, rows === 0 ? this.end.column - this.start.column : this.end.column)
  }

  serialize(): [[number, number], [number, number]] {
    return [this.start.serialize(), this.end.serialize()]
  }

  toString(): string {
    return `[${this.start} - ${this.end}]`
  }
}

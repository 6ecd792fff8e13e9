import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { DisplayLayer } from '../display/display-layer.ts'
import { foldableRowRangeContainingRow, indentationFoldRowRanges, indentationFoldRowRangesAtLevel } from '../display/fold-ranges.ts'
import type { LanguageMode } from '../language/language-mode.ts'
import { Point } from '../point/point.ts'
import { Range } from '../point/range.ts'

/** Where folds can go: from the syntax tree in a language mode, from indentation in plain text. */
export interface FoldFinder {
  /** The fold around `point` (Atom's `getFoldableRangeContainingPoint`), or null. */
  rangeContainingPoint(point: Point): Range | null
  /** Every fold, nested ones included, by start. */
  ranges(): Range[]
  /** The folds at one nesting (syntax) or indentation (plain text) level. */
  rangesAtLevel(level: number): Range[]
}

/** The editor's fold finder: the language's syntax folds, or indentation where the language has none. */
export function foldFinderFor(languageMode: LanguageMode, buffer: TextBuffer, tabLength: number): FoldFinder {
  return languageMode.getSyntaxFolds() ?? indentationFolds(buffer, tabLength)
}

function indentationFolds(buffer: TextBuffer, tabLength: number): FoldFinder {
  // Indentation folds run from the end of the first row to the end of the last, as Atom's plain-text mode.
  const toRange = ([start, end]: [number, number]) => new Range([start, buffer.lineLengthForRow(start)], [end, buffer.lineLengthForRow(end)])
  return {
    rangeContainingPoint(point) {
      const position = buffer.clipPosition(point)
      const fromRowEnd = position.column >= buffer.lineLengthForRow(position.row)
      const rows = foldableRowRangeContainingRow(buffer, position.row, tabLength, fromRowEnd)
      return rows ? toRange(rows) : null
    },
    ranges: () => indentationFoldRowRanges(buffer, tabLength).map(toRange),
    rangesAtLevel: (level) => indentationFoldRowRangesAtLevel(buffer, level, tabLength).map(toRange),
  }
}

/**
 * Atom's `foldBufferRow`: folds the block around the end of `row`; when that block is folded already,
 * the block around it, and so on outward. Returns the new fold's id, or null when nothing folded.
 */
export function foldBufferRow(layer: DisplayLayer, finder: FoldFinder, row: number): number | null {
  let position = new Point(row, Infinity)
  for (;;) {
    const range = finder.rangeContainingPoint(position)
    if (!range) return null
    const existing = layer.foldsIntersectingBufferRange(new Range(range.start, range.start))
    if (existing.length === 0) return layer.foldBufferRange(range)
    const firstStart = existing[0]!.range.start
    if (!firstStart.isLessThan(position)) return null
    position = new Point(firstStart.row, 0)
  }
}

/** Atom's `foldAll` and `foldAllAtIndentLevel`: every existing fold goes, then each range is folded. */
export function refoldAll(layer: DisplayLayer, ranges: readonly Range[]): void {
  layer.unfoldAll()
  for (const range of ranges) layer.foldBufferRange(range)
}

/** Atom's `isFoldableAtBufferRow`: a fold of the language's syntax (or of indentation) starts on the row. */
export function isFoldableAtBufferRow(layer: DisplayLayer, languageMode: LanguageMode, buffer: TextBuffer, row: number): boolean {
  if (!Number.isInteger(row) || row < 0 || row > buffer.getLastRow()) return false
  const syntaxFolds = languageMode.getSyntaxFolds()
  return syntaxFolds ? syntaxFolds.isFoldableAtRow(row) : layer.isFoldableAtBufferRow(row)
}

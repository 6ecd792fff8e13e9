import type { Tree } from '@lezer/common'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { PointLike } from '../point/point.ts'
import { assertLine, assertRow, clipRow } from './arguments.ts'
import { decreasedIndentLevel, suggestedIndentLevel, type IndentOptions, type IndentSource } from './indentation.ts'
import type { CommentStrings, IndentRules, LanguageSpec, SourceReader } from './language-spec.ts'
import type { LanguageMode } from './mode.ts'
import type { LanguageId } from './registry.ts'
import { ScopeDescriptor } from './scope-descriptor.ts'
import { firstNonBlankColumn, leadingWhitespace } from './row-text.ts'
import { resolveOffset, type ResolvedPosition } from './scopes.ts'
import { IncrementalSyntaxTree, type SyntaxTreeOptions } from './syntax-tree.ts'
import { SyntaxFolds } from './syntax-folds.ts'

/** Atom's test for a comment scope (`TokenizedLine#isComment`). */
const COMMENT_SCOPE = /(\b|_)comment(\b|_)/
const NON_WHITESPACE = /\S/
/** How far into a row `codeForRow` blanks strings and comments. */
const CODE_REACH = 16 * 1024

/**
 * A language mode backed by an incrementally parsed Lezer tree. Its queries (scopes, comments, indentation)
 * read `IncrementalSyntaxTree.treeAt`: the full tree near the top of a file or once the parse has got there,
 * a window's approximate tree further down until then, so that no query parses more than the work budget.
 */
export class TreeLanguageMode implements LanguageMode {
  readonly id: LanguageId
  readonly rootScope: string
  private readonly syntax: IncrementalSyntaxTree
  private readonly reader: SourceReader
  private readonly indentSource: IndentSource
  private folds: SyntaxFolds | null = null

  constructor(
    private readonly spec: LanguageSpec,
    private readonly buffer: TextBuffer,
    options: Pick<SyntaxTreeOptions, 'budget'> = {},
  ) {
    this.id = spec.id
    this.rootScope = spec.rootScope
    this.syntax = new IncrementalSyntaxTree(buffer, spec.parser, { budget: options.budget, resumeLine: spec.resumeLine })
    this.reader = { text: (from, to) => buffer.getTextBetweenOffsets(from, to) }
    this.indentSource = {
      lineForRow: (row) => buffer.lineForRow(row) ?? '',
      indentationForRow: (row) => leadingWhitespace(buffer, row),
      isRowBlank: (row) => buffer.isRowBlank(row),
      rulesForRow: (row) => this.rulesForRow(row),
      codeForRow: (row) => this.codeForRow(row),
      isRowCommented: (row) => this.isRowCommented(row),
    }
  }

  getSyntaxTree(): Tree {
    return this.syntax.getTree()
  }

  syntaxTreeUpTo(offset: number): Tree {
    return this.syntax.treeUpTo(offset)
  }

  advanceParse(goal: number, shouldStop: () => boolean): boolean {
    return this.syntax.advance(goal, shouldStop)
  }

  parsedUpTo(): number {
    return this.syntax.progress()?.upTo ?? 0
  }

  syntaxTreeSoFar(): { readonly tree: Tree; readonly upTo: number } | null {
    return this.syntax.progress()
  }

  getSyntaxFolds(): SyntaxFolds | null {
    if (this.spec.foldsByIndentation) return null
    this.folds ??= new SyntaxFolds(this.buffer, () => this.syntax.getTree())
    return this.folds
  }

  scopeDescriptorForPosition(position: PointLike): ScopeDescriptor {
    return new ScopeDescriptor({ scopes: this.resolvePosition(position).scopes })
  }

  syntaxTreeScopeDescriptorForPosition(position: PointLike): ScopeDescriptor {
    return new ScopeDescriptor({ scopes: [this.rootScope, ...this.resolvePosition(position).nodeNames] })
  }

  commentStringsForPosition(position: PointLike): CommentStrings {
    const point = this.buffer.clipPosition(position)
    const first = (this.buffer.lineForRow(point.row) ?? '').search(NON_WHITESPACE)
    // In a line's indentation the line's first character decides (a script line inside HTML is JavaScript).
    const resolved = first === -1 || point.column <= first ? this.resolveRow(point.row) : this.resolvePosition(point)
    return resolved.language.commentStrings(resolved.node, this.reader)
  }

  isRowCommented(row: number): boolean {
    assertRow(row)
    if (!Number.isInteger(row) || row < 0 || row > this.buffer.getLastRow()) return false
    return this.resolveRow(row).scopes.some((scope) => COMMENT_SCOPE.test(scope))
  }

  suggestedIndentForBufferRow(row: number, options: IndentOptions): number {
    const clipped = clipRow(this.buffer, row, options)
    return suggestedIndentLevel(this.indentSource, clipped, this.buffer.lineForRow(clipped) ?? '', this.codeForRow(clipped), options)
  }

  suggestedIndentForLineAtBufferRow(row: number, line: string, options: IndentOptions): number {
    assertLine(line)
    return suggestedIndentLevel(this.indentSource, clipRow(this.buffer, row, options), line, line, options)
  }

  shouldDecreaseIndentForRow(row: number): boolean {
    assertRow(row)
    if (!Number.isInteger(row) || row < 0 || row > this.buffer.getLastRow()) return false
    const rules = this.rulesForRow(row)
    return rules ? rules.decrease(this.buffer.lineForRow(row) ?? '', this.codeForRow(row)) : false
  }

  suggestedIndentForEditedBufferRow(row: number, options: IndentOptions): number | undefined {
    return decreasedIndentLevel(this.indentSource, clipRow(this.buffer, row, options), options)
  }

  destroy(): void {
    this.syntax.destroy()
  }

  /** The character at a position, or the one before it at the end of a line (Atom's rule). */
  private resolvePosition(position: PointLike): ResolvedPosition {
    const point = this.buffer.clipPosition(position)
    const lineLength = this.buffer.lineLengthForRow(point.row)
    const offset = this.buffer.characterIndexForPosition(point)
    const tree = this.syntax.treeAt(offset + 1)
    if (lineLength === 0) return resolveOffset(this.spec, tree, this.reader, offset, 0)
    return resolveOffset(this.spec, tree, this.reader, point.column >= lineLength ? offset - 1 : offset, 1)
  }

  /** A row's first non-blank character; for a blank row, what encloses its start. */
  private resolveRow(row: number): ResolvedPosition {
    const length = this.buffer.lineLengthForRow(row)
    const rowStart = this.buffer.characterIndexForPosition([row, 0])
    const first = firstNonBlankColumn(this.buffer, row)
    // The tree up to the character asked about, not to the row's end: on a 1 MB minified line the end is
    // a megabyte of parsing away, and the rules are asked for at every keystroke.
    const tree = this.syntax.treeAt(rowStart + (first === -1 ? length : first + 1))
    if (first === -1) return resolveOffset(this.spec, tree, this.reader, rowStart, length === 0 ? 0 : 1)
    return resolveOffset(this.spec, tree, this.reader, rowStart + first, 1)
  }

  private rulesForRow(row: number): IndentRules | null {
    return this.resolveRow(row).language.indent
  }

  /** The row's text with its strings and comments blanked to spaces, so their brackets are not code. */
  private codeForRow(row: number): string {
    const line = this.buffer.lineForRow(row) ?? ''
    const opaque = this.resolveRow(row).language.opaque
    if (opaque.size === 0 || line.length === 0) return line
    const rowStart = this.buffer.characterIndexForPosition([row, 0])
    // A row longer than CODE_REACH is blanked only that far: the indentation rules read a row's start, and
    // blanking a 1 MB minified line whole would parse a megabyte at every keystroke typed on it.
    const rowEnd = rowStart + Math.min(line.length, CODE_REACH)
    const blanks: [number, number][] = []
    this.syntax.treeAt(rowEnd).iterate({
      from: rowStart,
      to: rowEnd,
      enter: (node) => {
        if (!opaque.has(node.name) || node.to <= rowStart || node.from >= rowEnd) return undefined
        blanks.push([Math.max(node.from, rowStart) - rowStart, Math.min(node.to, rowEnd) - rowStart])
        return false
      },
    })
    if (blanks.length === 0) return line
    // One pass over the line: a minified line holds tens of thousands of strings, and re-slicing the
    // whole line for each of them was quadratic (20 s per keystroke on a 1 MB line).
    const parts: string[] = []
    let copied = 0
    for (const [from, to] of blanks) {
      parts.push(line.slice(copied, from), ' '.repeat(to - from))
      copied = to
    }
    parts.push(line.slice(copied))
    return parts.join('')
  }
}

import type { TextBuffer } from '../buffer/text-buffer.ts'
import type { PointLike } from '../point/point.ts'
import { assertLine, assertRow, clipRow } from './arguments.ts'
import { decreasedIndentLevel, suggestedIndentLevel, type IndentOptions, type IndentSource } from './indentation.ts'
import type { CommentStrings } from './language-spec.ts'
import { languageSpec } from './languages/index.ts'
import { isLanguageId, languageInfo, LANGUAGE_IDS, type LanguageId } from './registry.ts'
import { leadingWhitespace } from './row-text.ts'
import { ScopeDescriptor } from './scope-descriptor.ts'
import type { LanguageMode } from './mode.ts'
import { TreeLanguageMode } from './tree-language-mode.ts'

export type { CommentStrings } from './language-spec.ts'
export type { IndentOptions } from './indentation.ts'
export type { LanguageMode } from './mode.ts'

export interface LanguageModeOptions {
  /**
   * Characters of not-yet-parsed text one query may parse before it answers from a local window instead
   * (default 64 KB; see `IncrementalSyntaxTree`).
   */
  readonly parseBudget?: number
}

/**
 * Creates the mode of language `id` for `buffer`. It parses lazily on the first query and follows the buffer
 * through its change hook, re-parsing only what changed (local or remote edits alike) on the next query.
 */
export function createLanguageMode(id: LanguageId, buffer: TextBuffer, options: LanguageModeOptions = {}): LanguageMode {
  if (!isLanguageId(id)) throw new TypeError(`language must be one of ${LANGUAGE_IDS.join(', ')}; got ${String(id)}`)
  const budget = options.parseBudget
  if (budget !== undefined && !(typeof budget === 'number' && budget >= 0)) throw new TypeError(`parseBudget must be a non-negative number; got ${String(budget)}`)
  const spec = languageSpec(id)
  return spec ? new TreeLanguageMode(spec, buffer, { budget }) : new PlainTextMode(buffer)
}

/** Plain text: one scope everywhere, no comments, and each new line keeps the previous line's indentation. */
class PlainTextMode implements LanguageMode {
  readonly id = 'text' as const
  readonly rootScope = languageInfo('text').rootScope
  private readonly indentSource: IndentSource

  constructor(private readonly buffer: TextBuffer) {
    this.indentSource = {
      lineForRow: (row) => buffer.lineForRow(row) ?? '',
      indentationForRow: (row) => leadingWhitespace(buffer, row),
      isRowBlank: (row) => buffer.isRowBlank(row),
      rulesForRow: () => null,
      codeForRow: (row) => buffer.lineForRow(row) ?? '',
      isRowCommented: () => false,
    }
  }

  scopeDescriptorForPosition(position: PointLike): ScopeDescriptor {
    this.buffer.clipPosition(position)
    return new ScopeDescriptor({ scopes: [this.rootScope] })
  }

  syntaxTreeScopeDescriptorForPosition(position: PointLike): ScopeDescriptor {
    return this.scopeDescriptorForPosition(position)
  }

  commentStringsForPosition(position: PointLike): CommentStrings {
    this.buffer.clipPosition(position)
    return {}
  }

  isRowCommented(row: number): boolean {
    assertRow(row)
    return false
  }

  suggestedIndentForBufferRow(row: number, options: IndentOptions): number {
    const clipped = clipRow(this.buffer, row, options)
    const line = this.buffer.lineForRow(clipped) ?? ''
    return suggestedIndentLevel(this.indentSource, clipped, line, line, options)
  }

  suggestedIndentForLineAtBufferRow(row: number, line: string, options: IndentOptions): number {
    assertLine(line)
    return suggestedIndentLevel(this.indentSource, clipRow(this.buffer, row, options), line, line, options)
  }

  shouldDecreaseIndentForRow(row: number): boolean {
    assertRow(row)
    return false
  }

  suggestedIndentForEditedBufferRow(row: number, options: IndentOptions): number | undefined {
    return decreasedIndentLevel(this.indentSource, clipRow(this.buffer, row, options), options)
  }

  getSyntaxTree(): null {
    return null
  }

  syntaxTreeUpTo(_offset: number): null {
    return null
  }

  advanceParse(_goal: number, _shouldStop: () => boolean): boolean {
    return true
  }

  parsedUpTo(): number {
    return this.buffer.getLength()
  }

  syntaxTreeSoFar(): null {
    return null
  }

  getSyntaxFolds(): null {
    return null
  }

  destroy(): void {}
}

import { highlightTreeRows, parserForLanguage, type Disposable, type HighlightSpan, type LanguageMode, type TextEditor } from '../../core/index.ts'

/** Part of one buffer row to paint with `classes` (`tok-*` names). */
export type RowSpan = HighlightSpan

/** The longest the parser runs in one go: well inside a frame, so typing and scrolling never wait. */
export const SLICE_MS = 5

export interface ParseTiming {
  /** Milliseconds per slice; default SLICE_MS. */
  sliceMs?: number
  /** The clock slices are measured with; default `performance.now`. */
  now?: () => number
}

/**
 * Syntax highlighting that never holds up the page, from the language mode's own tree: the page drives the
 * mode's parse (`LanguageMode.advanceParse`) in slices of a few milliseconds, the part in view first, then the
 * rest of the document in the background, painting as it goes. Highlighting, fold toggles and the editor's
 * language queries (scopes, indentation, comments) all read that one tree, so nothing parses the document
 * twice and nothing parses it whole in one task. An edit (local or remote) cuts the mode's tree where it
 * touched, and the next slices re-parse only around it. Rows past what is parsed paint plain.
 */
export class ProgressiveParse {
  private timer = 0
  private readonly subscriptions: Disposable[]

  constructor(
    private readonly editor: TextEditor,
    private readonly win: Window,
    /** More of the document got highlighted: rows painted plain may now have colours. */
    private readonly onProgress: () => void,
    private readonly timing: ParseTiming = {},
  ) {
    this.subscriptions = [editor.onDidChangeLanguage(() => this.schedule()), editor.onDidChange(() => this.schedule())]
    this.schedule()
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    this.win.clearTimeout(this.timer)
    this.timer = 0
  }

  /** Whether the whole document is parsed (for tests and benchmarks; the gutter's fold toggles wait for it). */
  isComplete(): boolean {
    return this.mode().parsedUpTo() >= this.editor.getBuffer().getLength()
  }

  /**
   * Spans for buffer rows first..last, parsing up to their end first if there is time in this slice;
   * null for plain text. Rows (or their parts) past what is parsed get none yet.
   */
  spansForBufferRows(first: number, last: number): RowSpan[][] | null {
    if (parserForLanguage(this.editor.getLanguage()) === null) return null
    const buffer = this.editor.getBuffer()
    const to = last + 1 > buffer.getLastRow() ? buffer.getLength() : buffer.characterIndexForPosition([last + 1, 0])
    const mode = this.mode()
    if (mode.parsedUpTo() < to) mode.advanceParse(to, this.deadline())
    const soFar = mode.syntaxTreeSoFar()
    if (soFar === null) return Array.from({ length: Math.max(0, last - first + 1) }, () => [])
    return highlightTreeRows(soFar.tree, buffer, first, last, soFar.upTo)
  }

  private mode(): LanguageMode {
    return this.editor.getLanguageMode()
  }

  /** A `shouldStop` for one slice from now. */
  private deadline(): () => boolean {
    const now = this.timing.now ?? (() => performance.now())
    const end = now() + (this.timing.sliceMs ?? SLICE_MS)
    return () => now() >= end
  }

  private schedule(): void {
    if (this.timer !== 0 || this.editor.isDestroyed() || this.isComplete()) return
    this.timer = this.win.setTimeout(() => {
      this.timer = 0
      if (this.editor.isDestroyed()) return
      const mode = this.mode()
      const before = mode.parsedUpTo()
      mode.advanceParse(Infinity, this.deadline())
      if (mode.parsedUpTo() > before) this.onProgress()
      this.schedule()
    }, 0)
  }
}

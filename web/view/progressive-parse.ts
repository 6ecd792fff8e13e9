import { TreeFragment, type Input, type Parser, type PartialParse, type Tree } from '@lezer/common'
import { highlightTreeRows, parserForLanguage, type Disposable, type HighlightSpan, type TextBuffer, type TextEditor } from '../../core/index.ts'

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
/** How much further than the view each background step parses before painting what it has. */
const CHUNK = 128 * 1024

/**
 * Syntax highlighting that never holds up the page: a Lezer parse of the editor's text that runs in
 * slices of a few milliseconds, the part in view first, then the rest of the document a chunk at a
 * time in the background, painting as it goes. Each step is a partial tree (Lezer's `stopAt`) whose
 * fragments the next step reuses; an edit (local or remote) cuts the fragments it touched, so
 * re-parsing after a keystroke only reads around it. Rows past what is parsed paint plain.
 */
export class ProgressiveParse {
  private parser: Parser | null = null
  private tree: Tree | null = null
  private fragments: readonly TreeFragment[] = []
  /** The tree is right for the current text on [0, parsedTo). */
  private parsedTo = 0
  private parse: PartialParse | null = null
  private target = 0
  private timer = 0
  private readonly subscriptions: Disposable[]

  constructor(
    private readonly editor: TextEditor,
    private readonly win: Window,
    /** More of the document got highlighted: rows painted plain may now have colours. */
    private readonly onProgress: () => void,
    private readonly timing: ParseTiming = {},
  ) {
    this.subscriptions = [
      editor.onDidChangeLanguage(() => this.reset()),
      editor.onDidChange(({ changes }) => {
        for (const change of changes) {
          const range = { fromA: change.startOffset, toA: change.startOffset + change.oldLength, fromB: change.startOffset, toB: change.startOffset + change.newLength }
          this.fragments = TreeFragment.applyChanges(this.fragments, [range])
          this.parsedTo = Math.min(this.parsedTo, change.startOffset)
        }
        this.parse = null
        this.schedule()
      }),
    ]
    this.reset()
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose()
    this.win.clearTimeout(this.timer)
    this.parse = null
  }

  /** Whether the whole document is parsed (for tests and benchmarks). */
  isComplete(): boolean {
    return this.parser === null || this.parsedTo >= this.buffer().getLength()
  }

  /**
   * Spans for buffer rows first..last, parsing up to their end first if there is time in this slice;
   * null for plain text. Rows (or their parts) past what is parsed get none yet.
   */
  spansForBufferRows(first: number, last: number): RowSpan[][] | null {
    if (this.parser === null) return null
    const buffer = this.buffer()
    const to = last + 1 > buffer.getLastRow() ? buffer.getLength() : buffer.characterIndexForPosition([last + 1, 0])
    if (this.parsedTo < to) this.work(to, false)
    if (this.tree === null) return Array.from({ length: Math.max(0, last - first + 1) }, () => [])
    return highlightTreeRows(this.tree, buffer, first, last, this.parsedTo)
  }

  private buffer(): TextBuffer {
    return this.editor.getBuffer()
  }

  private reset(): void {
    this.parser = parserForLanguage(this.editor.getLanguage())
    this.tree = null
    this.fragments = []
    this.parsedTo = 0
    this.parse = null
    this.schedule()
  }

  private schedule(): void {
    if (this.timer !== 0 || this.isComplete()) return
    this.timer = this.win.setTimeout(() => {
      this.timer = 0
      if (this.editor.isDestroyed()) return
      const before = this.parsedTo
      this.work(this.buffer().getLength(), true)
      if (this.parsedTo > before) this.onProgress()
      this.schedule()
    }, 0)
  }

  /**
   * Parses towards `goal` (an offset) for at most one slice; later slices go on from there. In the
   * background each step goes a chunk further; for the view, exactly to what it shows.
   */
  private work(goal: number, background: boolean): void {
    const parser = this.parser
    if (parser === null) return
    const now = this.timing.now ?? (() => performance.now())
    const deadline = now() + (this.timing.sliceMs ?? SLICE_MS)
    const length = this.buffer().getLength()
    while (this.parsedTo < Math.min(goal, length)) {
      if (this.parse === null) {
        this.target = Math.min(length, background ? this.parsedTo + CHUNK : goal)
        this.parse = parser.startParse(new BufferLines(this.buffer()), this.fragments)
        if (this.target < length) this.parse.stopAt(this.target)
      }
      let done: Tree | null = null
      // Reading the clock costs about as much as a parser step: look at it every 16 steps.
      for (let steps = 1; done === null; steps++) {
        done = this.parse.advance()
        if ((steps & 15) === 0 && now() >= deadline) break
      }
      if (done === null) return
      const partial = this.target < length
      this.tree = done
      this.fragments = TreeFragment.addTree(done, this.fragments, partial)
      this.parsedTo = partial ? this.target : length
      this.parse = null
    }
  }
}

/**
 * A Lezer `Input` reading the buffer a line at a time (a parse never builds the whole text as one
 * string), remembering the last line it served since the parser reads left to right.
 */
class BufferLines implements Input {
  readonly length: number
  readonly lineChunks = false
  private rowStart = -1
  private rowText = ''
  private row = -1

  constructor(private readonly buffer: TextBuffer) {
    this.length = buffer.getLength()
  }

  chunk(from: number): string {
    if (from < 0 || from >= this.length) return ''
    if (this.row < 0 || from < this.rowStart || from >= this.rowStart + this.rowText.length) {
      if (this.row >= 0 && from === this.rowStart + this.rowText.length) this.load(this.row + 1, from)
      else {
        const { row } = this.buffer.positionForCharacterIndex(from)
        const start = this.buffer.characterIndexForPosition([row, 0])
        const text = this.lineWithEnding(row)
        // An offset on the '\n' of a '\r\n' clips back into its row; one past a row's ending is the next row.
        if (from >= start + text.length) this.load(row + 1, start + text.length)
        else this.load(row, start)
      }
    }
    return this.rowText.slice(from - this.rowStart)
  }

  read(from: number, to: number): string {
    return this.buffer.getTextBetweenOffsets(from, to)
  }

  private load(row: number, start: number): void {
    this.row = row
    this.rowStart = start
    this.rowText = this.lineWithEnding(row)
  }

  private lineWithEnding(row: number): string {
    return (this.buffer.lineForRow(row) ?? '') + this.buffer.lineEndingForRow(row)
  }
}

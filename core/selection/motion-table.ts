import { Point } from '../point/point.ts'
import { clipToCluster } from '../point/unicode.ts'
import type { ClipOptions } from '../display/display-layer.ts'
import { type LineSource, lineAt } from '../motions/line-source.ts'
import {
  afterLeadingWhitespace,
  beginningOfLine,
  bottom,
  characterLeft,
  characterRight,
  endOfLine,
  firstCharacterOfLine,
  top,
  vertically,
} from '../motions/character.ts'
import {
  beginningOfCurrentWord,
  beginningOfNextWord,
  endOfCurrentWord,
  nextWordBoundary,
  previousWordBoundary,
  subwordRegExp,
  wordRegExp,
} from '../motions/word.ts'
import { beginningOfNextParagraph, beginningOfPreviousParagraph } from '../motions/paragraph.ts'

/** What a motion reads besides its position: the lines of its coordinate space and the cursor's settings. */
export interface MotionContext {
  readonly lines: LineSource
  readonly nonWordCharacters: string
  readonly goalColumn: number | null
}

/**
 * A motion: a pure function from a position to a position, and how to run it. Moving, selecting and
 * deleting are all generated from this: a cursor moves to the target, a selection extends its head to it,
 * a deletion removes what lies between (or the selection, when there is one).
 */
export interface Motion {
  /** The coordinate space the motion reads and answers in. */
  readonly space: 'buffer' | 'screen'
  /** Backward motions leave reversed selections when extended selections merge (Atom). */
  readonly backward: boolean
  /** How the display layer clips a screen target. */
  readonly clip?: ClipOptions
  /** Counted motions take a row or column count; at the editor they first collapse a selection to that side. */
  readonly counted?: boolean
  /** Vertical motions keep the goal column for the next one. */
  readonly vertical?: boolean
  /** Moves only when the target lies after the position (and so leaves a selection alone otherwise). */
  readonly onlyForward?: boolean
  to(context: MotionContext, position: Point, count: number): Point
}

/** One row of the command grid: a motion and Atom's names for moving, selecting and deleting by it. */
export interface MotionRow {
  readonly motion: Motion
  readonly move: string
  readonly select: string | null
  readonly delete: string | null
}

const words = (context: MotionContext) => ({ wordRegex: wordRegExp(context.nonWordCharacters) })
const subwords = (context: MotionContext, backwards: boolean) => ({ wordRegex: subwordRegExp(context.nonWordCharacters, { backwards }) })

const up: Motion = { space: 'screen', backward: true, counted: true, vertical: true, clip: { skipSoftWrapIndentation: true }, to: (c, p, n) => vertically(p, -n, c.goalColumn) }
const down: Motion = { space: 'screen', backward: false, counted: true, vertical: true, clip: { skipSoftWrapIndentation: true }, to: (c, p, n) => vertically(p, n, c.goalColumn) }
const left: Motion = { space: 'screen', backward: true, counted: true, clip: { clipDirection: 'backward' }, to: (c, p, n) => characterLeft(c.lines, p, n) }
const right: Motion = { space: 'screen', backward: false, counted: true, clip: { clipDirection: 'forward' }, to: (c, p, n) => characterRight(c.lines, p, n) }
const buffer = (backward: boolean, to: (context: MotionContext, position: Point) => Point): Motion => ({ space: 'buffer', backward, to })
/** Word patterns see code points, not clusters: a word motion never stops inside one (before a combining mark). */
const wordMotion = (backward: boolean, to: (context: MotionContext, position: Point) => Point): Motion =>
  buffer(backward, (context, position) => {
    const target = to(context, position)
    const column = clipToCluster(lineAt(context.lines, target.row), target.column, backward ? 'backward' : 'forward')
    return column === target.column ? target : new Point(target.row, column)
  })
const screen = (backward: boolean, to: (context: MotionContext, position: Point) => Point, clip?: ClipOptions): Motion =>
  clip ? { space: 'screen', backward, to, clip } : { space: 'screen', backward, to }

/** Atom's grid of cursor motions: `Cursor#move…`, `Selection#select…`, `Selection#delete…` and the editor's. */
export const MOTION_TABLE = [
  { motion: up, move: 'moveUp', select: 'selectUp', delete: null },
  { motion: down, move: 'moveDown', select: 'selectDown', delete: null },
  { motion: left, move: 'moveLeft', select: 'selectLeft', delete: 'backspace' },
  { motion: right, move: 'moveRight', select: 'selectRight', delete: 'delete' },
  { motion: buffer(true, () => top()), move: 'moveToTop', select: 'selectToTop', delete: null },
  { motion: buffer(false, (c) => bottom(c.lines)), move: 'moveToBottom', select: 'selectToBottom', delete: null },
  { motion: screen(true, (c, p) => beginningOfLine(c.lines, p)), move: 'moveToBeginningOfScreenLine', select: null, delete: null },
  { motion: buffer(true, (c, p) => beginningOfLine(c.lines, p)), move: 'moveToBeginningOfLine', select: 'selectToBeginningOfLine', delete: null },
  {
    motion: screen(true, (c, p) => firstCharacterOfLine(c.lines, p), { skipSoftWrapIndentation: true }),
    move: 'moveToFirstCharacterOfLine',
    select: 'selectToFirstCharacterOfLine',
    delete: null,
  },
  { motion: screen(false, (c, p) => endOfLine(c.lines, p)), move: 'moveToEndOfScreenLine', select: 'selectToEndOfLine', delete: null },
  { motion: buffer(false, (c, p) => endOfLine(c.lines, p)), move: 'moveToEndOfLine', select: 'selectToEndOfBufferLine', delete: null },
  {
    motion: wordMotion(true, (c, p) => beginningOfCurrentWord(c.lines, p, words(c))),
    move: 'moveToBeginningOfWord',
    select: 'selectToBeginningOfWord',
    delete: 'deleteToBeginningOfWord',
  },
  { motion: wordMotion(false, (c, p) => endOfCurrentWord(c.lines, p, words(c))), move: 'moveToEndOfWord', select: 'selectToEndOfWord', delete: 'deleteToEndOfWord' },
  {
    motion: wordMotion(false, (c, p) => beginningOfNextWord(c.lines, p, words(c))),
    move: 'moveToBeginningOfNextWord',
    select: 'selectToBeginningOfNextWord',
    delete: null,
  },
  {
    motion: wordMotion(true, (c, p) => previousWordBoundary(c.lines, p, words(c))),
    move: 'moveToPreviousWordBoundary',
    select: 'selectToPreviousWordBoundary',
    delete: 'deleteToPreviousWordBoundary',
  },
  {
    motion: wordMotion(false, (c, p) => nextWordBoundary(c.lines, p, words(c))),
    move: 'moveToNextWordBoundary',
    select: 'selectToNextWordBoundary',
    delete: 'deleteToNextWordBoundary',
  },
  {
    motion: wordMotion(true, (c, p) => previousWordBoundary(c.lines, p, subwords(c, true))),
    move: 'moveToPreviousSubwordBoundary',
    select: 'selectToPreviousSubwordBoundary',
    delete: 'deleteToBeginningOfSubword',
  },
  {
    motion: wordMotion(false, (c, p) => nextWordBoundary(c.lines, p, subwords(c, false))),
    move: 'moveToNextSubwordBoundary',
    select: 'selectToNextSubwordBoundary',
    delete: 'deleteToEndOfSubword',
  },
  {
    motion: { ...buffer(false, (c, p) => afterLeadingWhitespace(c.lines, p)), onlyForward: true },
    move: 'skipLeadingWhitespace',
    select: null,
    delete: null,
  },
  {
    motion: buffer(false, (c, p) => beginningOfNextParagraph(c.lines, p)),
    move: 'moveToBeginningOfNextParagraph',
    select: 'selectToBeginningOfNextParagraph',
    delete: null,
  },
  {
    motion: buffer(true, (c, p) => beginningOfPreviousParagraph(c.lines, p)),
    move: 'moveToBeginningOfPreviousParagraph',
    select: 'selectToBeginningOfPreviousParagraph',
    delete: null,
  },
] as const satisfies readonly MotionRow[]

type Row = (typeof MOTION_TABLE)[number]

/** The motions by their `Cursor` method name, for commands that run one motion directly. */
export const MOTIONS = Object.fromEntries(MOTION_TABLE.map((row) => [row.move, row.motion])) as { readonly [R in Row as R['move']]: Motion }

export interface MoveOptions {
  /** With a selection, a counted motion goes to the selection's end on its side instead. */
  moveToEndOfSelection?: boolean
}

/** `Cursor#moveUp(rowCount, options)`, `Cursor#moveToTop()`, … */
export type MoveMethods = { [R in Row as R['move']]: (count?: number, options?: MoveOptions) => void }
/** `Selection#selectUp(rowCount)`, `Selection#selectToTop()`, … */
export type SelectMethods = { [R in Row as R['select'] extends string ? R['select'] : never]: (count?: number) => void }
/** `Selection#backspace(options)`, `Selection#deleteToEndOfWord(options)`, … */
export type DeleteMethods<Options> = { [R in Row as R['delete'] extends string ? R['delete'] : never]: (options?: Options) => void }

/** Counts must be numbers; NaN or negative counts move nothing rather than somewhere surprising. */
export function checkCount(count: unknown, name: string): number {
  if (typeof count !== 'number') throw new TypeError(`${name} must be a number; got ${typeof count}`)
  return Number.isNaN(count) ? 0 : Math.max(0, count)
}

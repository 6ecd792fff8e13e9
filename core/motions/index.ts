/** Pure text motions with Atom's semantics: functions of a `LineSource` and a position. */
export {
  type LineSource,
  type ClipDirection,
  linesOf,
  clipPoint,
  endOfText,
  isBlankRow,
  previousNonBlankRow,
  textBetween,
} from './line-source.ts'
export { findAllInRange, findInRange, matchesInRange, scanInRange } from './scan.ts'
export {
  DEFAULT_NON_WORD_CHARACTERS,
  type WordOptions,
  wordRegExp,
  subwordRegExp,
  beginningOfCurrentWord,
  endOfCurrentWord,
  beginningOfNextWord,
  previousWordBoundary,
  nextWordBoundary,
  previousSubwordBoundary,
  nextSubwordBoundary,
  currentWordRange,
  currentWordPrefix,
  selectWordRange,
  isInsideWord,
  isSurroundedByWhitespace,
  isBetweenWordAndNonWord,
} from './word.ts'
export { beginningOfNextParagraph, beginningOfPreviousParagraph, paragraphRowRange } from './paragraph.ts'
export { firstCharacterColumn, leadingWhitespaceLength, trailingWhitespaceStart } from './line.ts'
export {
  AUTO_CLOSE_PAIRS,
  BRACKET_PAIRS,
  MAX_ROWS_TO_SCAN,
  type BracketPair,
  type TypedBracketAction,
  bracketPairAt,
  isInsideEmptyPair,
  typedBracketAction,
} from './brackets.ts'

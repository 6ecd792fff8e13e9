import type { Range } from '../point/range.ts'
import type { Selection } from '../selection/selection.ts'

/**
 * Atom's text-transforming commands, one selection at a time (the editor runs them over every selection
 * as one transaction): transpose, upper and lower case, and replaceSelectedText which the case commands
 * are made of.
 */

export interface ReplaceOptions {
  /** An empty selection first selects the word around its cursor. */
  selectWordIfEmpty?: boolean
}

/** Replaces the selected text with `fn(text)` and selects the result. */
export function replaceSelectionText(selection: Selection, options: ReplaceOptions, fn: (text: string) => string): Range {
  if (options.selectWordIfEmpty && selection.isEmpty()) selection.selectWord()
  const replacement = fn(selection.getText())
  if (typeof replacement !== 'string') throw new TypeError(`replaceSelectedText: fn must return a string; got ${typeof replacement}`)
  selection.deleteSelectedText()
  const range = selection.insertText(replacement)
  selection.setBufferRange(range)
  return range
}

/** The selected text reversed, UTF-16 unit by unit as Atom does, but keeping surrogate pairs whole. */
export function reversedText(text: string): string {
  return Array.from(text).reverse().join('')
}

/**
 * Atom's `transpose`: an empty selection swaps the characters on either side of its cursor and leaves the
 * cursor after them; a non-empty one reverses its text.
 */
export function transposeSelection(selection: Selection): void {
  if (selection.isEmpty()) {
    selection.selectRight()
    const text = selection.getText()
    selection.delete()
    selection.cursor.moveLeft()
    selection.insertText(text)
  } else {
    selection.insertText(reversedText(selection.getText()))
  }
}

export const upperCase = (text: string): string => text.toUpperCase()
export const lowerCase = (text: string): string => text.toLowerCase()

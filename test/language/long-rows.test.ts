import { describe, expect, it } from 'vitest'
import { fixture } from './helpers.ts'

const TAB2 = { tabLength: 2 }

describe('indentation rules on long rows', () => {
  it('drops a closer row after 20,000 strings on it to the level of its block', () => {
    const row = '    }' + ' + "s"'.repeat(20_000)
    const { mode } = fixture('javascript', `function f() {\n  x()\n${row}`)
    expect(mode.suggestedIndentForEditedBufferRow(2, TAB2)).toBe(0)
    expect(mode.shouldDecreaseIndentForRow(2)).toBe(true)
  })

  it('keeps a row whose leading closer is inside a string that runs past the blanked reach', () => {
    const row = '    "}' + 'x'.repeat(40_000) + '"'
    const { mode } = fixture('javascript', `function f() {\n  x()\n${row}`)
    expect(mode.suggestedIndentForEditedBufferRow(2, TAB2)).toBe(undefined)
    expect(mode.shouldDecreaseIndentForRow(2)).toBe(false)
  })

  it('finds the first character of a row indented past one read of the row', () => {
    const { mode } = fixture('javascript', `{\n${' '.repeat(300)}}`)
    expect(mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(0)
    const blank = fixture('javascript', `{\n${' '.repeat(300)}`)
    expect(blank.mode.suggestedIndentForEditedBufferRow(1, TAB2)).toBe(undefined)
  })

  it('answers the scope of a 1 MB minified row from its first character', () => {
    const minified = 'var a=1;'.repeat(131_072)
    const { mode } = fixture('javascript', `  ${minified}`)
    expect(mode.suggestedIndentForEditedBufferRow(0, TAB2)).toBe(undefined)
    expect(mode.isRowCommented(0)).toBe(false)
    const commented = fixture('javascript', `  // ${minified}`)
    expect(commented.mode.isRowCommented(0)).toBe(true)
  })
})

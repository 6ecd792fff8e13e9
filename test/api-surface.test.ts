import { describe, expect, it } from 'vitest'
import * as cotext from '../core/index.ts'
import { TextEditor } from '../core/index.ts'

const editorMethods = `
getText setText getTextInBufferRange setTextInBufferRange lineTextForBufferRow lineTextForScreenRow getLineCount
getScreenLineCount getLastBufferRow getLastScreenRow getEofBufferPosition isEmpty getBuffer
screenPositionForBufferPosition bufferPositionForScreenPosition screenRangeForBufferRange bufferRangeForScreenRange
clipBufferPosition clipBufferRange clipScreenPosition clipScreenRange bufferRowForScreenRow screenRowForBufferRow
getCursors getLastCursor getCursorsOrderedByBufferPosition hasMultipleCursors addCursorAtBufferPosition
addCursorAtScreenPosition getCursorBufferPosition getCursorBufferPositions getCursorScreenPosition
getCursorScreenPositions setCursorBufferPosition setCursorScreenPosition
getSelections getLastSelection getSelectionsOrderedByBufferPosition getSelectedText getSelectedBufferRange
getSelectedBufferRanges setSelectedBufferRange setSelectedBufferRanges getSelectedScreenRange getSelectedScreenRanges
setSelectedScreenRange setSelectedScreenRanges addSelectionForBufferRange addSelectionForScreenRange
consolidateSelections clearSelections
moveUp moveDown moveLeft moveRight moveToTop moveToBottom moveToBeginningOfScreenLine moveToBeginningOfLine
moveToFirstCharacterOfLine moveToEndOfScreenLine moveToEndOfLine moveToBeginningOfWord moveToEndOfWord
moveToBeginningOfNextWord moveToPreviousWordBoundary moveToNextWordBoundary moveToPreviousSubwordBoundary
moveToNextSubwordBoundary moveToBeginningOfNextParagraph moveToBeginningOfPreviousParagraph
selectUp selectDown selectLeft selectRight selectToTop selectToBottom selectAll selectToBeginningOfLine
selectToFirstCharacterOfLine selectToEndOfLine selectToEndOfBufferLine selectToBeginningOfWord selectToEndOfWord
selectToBeginningOfNextWord selectToPreviousWordBoundary selectToNextWordBoundary selectToPreviousSubwordBoundary
selectToNextSubwordBoundary selectToBeginningOfNextParagraph selectToBeginningOfPreviousParagraph selectWord
expandOverWord selectLine expandOverLine insertText backspace delete deleteToPreviousWordBoundary
deleteToNextWordBoundary deleteToBeginningOfWord deleteToEndOfWord deleteToBeginningOfSubword deleteToEndOfSubword
deleteToBeginningOfLine deleteToEndOfLine deleteSelectedText deleteLine joinLines indent indentSelectedRows
outdentSelectedRows autoIndentSelectedRows addSelectionBelow addSelectionAbove cutToEndOfLine cutToEndOfBufferLine
insertNewline copySelectedText cutSelectedText pasteText toggleLineCommentsInSelection selectWordsContainingCursors
selectLinesContainingCursors splitSelectionsIntoLines
foldBufferRow foldBufferRange unfoldBufferRow unfoldAll isFoldedAtBufferRow isFoldedAtScreenRow setSoftWrapped
isSoftWrapped setEditorWidthInChars getEditorWidthInChars setTabLength getTabLength setSoftTabs getSoftTabs
undo redo transact createCheckpoint revertToCheckpoint groupChangesSinceCheckpoint setReadOnly isReadOnly
setLanguage getLanguage scopeDescriptorForBufferPosition syntaxTreeScopeDescriptorForBufferPosition
onDidChange onDidAddCursor onDidRemoveCursor onDidAddSelection onDidRemoveSelection onDidChangeCursorPosition
onDidChangeSelectionRange onDidDestroy destroy getPeers onDidAddPeer onDidRemovePeer
moveLineUp moveLineDown moveSelectionLeft moveSelectionRight insertNewlineAbove insertNewlineBelow duplicateLines
foldCurrentRow unfoldCurrentRow foldAll foldAllAtIndentLevel toggleFoldAtBufferRow replaceSelectedText transpose
upperCase lowerCase copyOnlySelectedText onWillInsertText selectMarker getCursorAtScreenPosition getCursorScope
getCurrentParagraphBufferRange pageUp pageDown selectPageUp selectPageDown
`

const selectionMethods = `
onDidChangeRange onDidDestroy getScreenRange setScreenRange getBufferRange setBufferRange getBufferRowRange
getTailScreenPosition getTailBufferPosition getHeadScreenPosition getHeadBufferPosition isEmpty isReversed
isSingleScreenLine getText intersectsBufferRange intersectsScreenRowRange intersectsScreenRow intersectsWith clear
selectToScreenPosition selectToBufferPosition selectRight selectLeft selectUp selectDown selectToTop selectToBottom
selectAll selectToBeginningOfLine selectToFirstCharacterOfLine selectToEndOfLine selectToEndOfBufferLine
selectToBeginningOfWord selectToEndOfWord selectToBeginningOfNextWord selectToPreviousWordBoundary
selectToNextWordBoundary selectToPreviousSubwordBoundary selectToNextSubwordBoundary selectToBeginningOfNextParagraph
selectToBeginningOfPreviousParagraph selectWord expandOverWord selectLine expandOverLine insertText backspace
deleteToPreviousWordBoundary deleteToNextWordBoundary deleteToBeginningOfWord deleteToBeginningOfLine delete
deleteToEndOfLine deleteToEndOfWord deleteToBeginningOfSubword deleteToEndOfSubword deleteSelectedText deleteLine
joinLines outdentSelectedRows autoIndentSelectedRows toggleLineComments cutToEndOfLine cutToEndOfBufferLine cut copy
fold indentSelectedRows indent addSelectionBelow addSelectionAbove merge compare getCursor isLastSelection destroy
`

const cursorMethods = `
onDidChangePosition onDidDestroy onDidChangeVisibility setScreenPosition getScreenPosition setBufferPosition
getBufferPosition getScreenRow getScreenColumn getBufferRow getBufferColumn getCurrentBufferLine isAtBeginningOfLine
isAtEndOfLine getMarker isSurroundedByWhitespace isBetweenWordAndNonWord isInsideWord getIndentLevel
getScopeDescriptor getSyntaxTreeScopeDescriptor hasPrecedingCharactersOnLine isLastCursor moveUp moveDown moveLeft
moveRight moveToTop moveToBottom moveToBeginningOfScreenLine moveToBeginningOfLine moveToFirstCharacterOfLine
moveToEndOfScreenLine moveToEndOfLine moveToBeginningOfWord moveToEndOfWord moveToBeginningOfNextWord
moveToPreviousWordBoundary moveToNextWordBoundary moveToPreviousSubwordBoundary moveToNextSubwordBoundary
skipLeadingWhitespace moveToBeginningOfNextParagraph moveToBeginningOfPreviousParagraph
getPreviousWordBoundaryBufferPosition getNextWordBoundaryBufferPosition getBeginningOfCurrentWordBufferPosition
getEndOfCurrentWordBufferPosition getBeginningOfNextWordBufferPosition getCurrentWordBufferRange
getCurrentLineBufferRange getCurrentParagraphBufferRange getCurrentWordPrefix setVisible isVisible compare
clearSelection wordRegExp subwordRegExp getSelection destroy
`

const words = (list: string) => list.split(/\s+/).filter(Boolean)

describe('the public API surface', () => {
  it('exports what API.md names from core/index.ts', () => {
    for (const name of ['TextEditor', 'TextBuffer', 'Selection', 'Cursor', 'DisplayMarker', 'Point', 'Range', 'Disposable', 'CompositeDisposable', 'Emitter', 'Clipboard', 'ScopeDescriptor', 'ReadOnlyEditorError', 'Peer']) {
      expect(typeof (cotext as Record<string, unknown>)[name], name).toBe('function')
    }
  })

  it('has every TextEditor, Selection and Cursor method of the contract', () => {
    const editor = new TextEditor({ text: 'abc' })
    const missing = [
      ...words(editorMethods).filter((m) => typeof (editor as unknown as Record<string, unknown>)[m] !== 'function').map((m) => `TextEditor#${m}`),
      ...words(selectionMethods).filter((m) => typeof (editor.getLastSelection() as unknown as Record<string, unknown>)[m] !== 'function').map((m) => `Selection#${m}`),
      ...words(cursorMethods).filter((m) => typeof (editor.getLastCursor() as unknown as Record<string, unknown>)[m] !== 'function').map((m) => `Cursor#${m}`),
    ]
    expect(missing).toEqual([])
  })

  it('answers plain-text scopes by default', () => {
    const editor = new TextEditor({ text: 'abc' })
    expect(editor.getLastCursor()!.getScopeDescriptor().getScopesArray()).toEqual(['text.plain'])
    expect(editor.getLanguage()).toBe('text')
    editor.setLanguage('javascript')
    editor.setText('"hi"')
    expect(editor.scopeDescriptorForBufferPosition([0, 1]).getScopesArray()).toEqual(['source.js', 'string.quoted.double.js'])
  })
})

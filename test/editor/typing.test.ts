import { describe, expect, it } from 'vitest'
import type { BufferChangeEvent } from '../../core/buffer/text-change.ts'
import type { ChangeSet } from '../../core/buffer/change-set.ts'
import { Range } from '../../core/point/range.ts'
import { TextEditor } from '../../core/editor/text-editor.ts'
import type { LanguageId } from '../../core/language/registry.ts'
import { editorWith, marked } from '../helpers/editor-text.ts'
import { Random, fuzzSeeds } from '../helpers/random.ts'

describe('typing at several cursors', () => {
  it('is one transaction and one pass through the pipeline, with an event per change', () => {
    const editor = editorWith('one|\ntwo|\nthree|')
    const buffer = editor.getBuffer()
    const passes: number[] = []
    buffer.addChangeHook('history', (event) => passes.push(event.changes.length))
    const changes: string[] = []
    editor.onDidChange((event: BufferChangeEvent) => changes.push(...event.changes.map((c) => `${c.startRow}:${c.startColumn}+${c.newText}`)))
    const sets: ChangeSet[] = []
    editor.onDidChangeText((set) => sets.push(set))
    let transactions = 0
    buffer.doc.on('afterTransaction', () => transactions++)
    const ranges = editor.insertText('ab')
    expect(marked(editor)).toBe('oneab|\ntwoab|\nthreeab|')
    expect(ranges).toEqual([new Range([0, 3], [0, 5]), new Range([1, 3], [1, 5]), new Range([2, 5], [2, 7])])
    expect(transactions).toBe(1)
    expect(passes).toEqual([3])
    expect(changes).toEqual(['0:3+ab', '1:3+ab', '2:5+ab'])
    expect(sets.map((set) => set.size)).toEqual([3])
  })

  it('replaces selections, a reversed one included, and leaves each cursor after its text', () => {
    const editor = editorWith('a«bc»d\nefg|\nhij')
    editor.addSelectionForBufferRange([[2, 1], [2, 3]], { reversed: true })
    expect(editor.insertText('X')).toEqual([new Range([0, 1], [0, 2]), new Range([1, 3], [1, 4]), new Range([2, 1], [2, 2])])
    expect(marked(editor)).toBe('aX|d\nefgX|\nhX|')
    expect(editor.getSelections().every((s) => !s.getCursor().marker.hasTail())).toBe(true)
  })

  it('is one undo step that restores every selection', () => {
    const editor = editorWith('a|b\nc«d»e')
    editor.insertText('x')
    editor.insertText('y')
    expect(marked(editor)).toBe('axy|b\ncxy|e')
    editor.undo()
    expect(marked(editor)).toBe('ax|b\ncx|e')
    editor.undo()
    expect(marked(editor)).toBe('a|b\nc«d»e')
    editor.redo()
    expect(marked(editor)).toBe('ax|b\ncx|e')
  })

  it('groups keystrokes into one undo step with groupUndo, as the page types', () => {
    const editor = editorWith('|a\n|b')
    for (const key of 'xyz') editor.insertText(key, { groupUndo: true })
    expect(marked(editor)).toBe('xyz|a\nxyz|b')
    editor.undo()
    expect(marked(editor)).toBe('|a\n|b')
  })

  it('announces each inserted range to onDidInsertText and lets onWillInsertText cancel', () => {
    const editor = editorWith('|a\n|b')
    const inserted: string[] = []
    editor.onDidInsertText(({ text, range }) => inserted.push(`${text}@${range.toString()}`))
    editor.insertText('q')
    expect(inserted).toEqual(['q@[(0, 0) - (0, 1)]', 'q@[(1, 0) - (1, 1)]'])
    const subscription = editor.onWillInsertText((event) => event.cancel())
    expect(editor.insertText('r')).toBe(false)
    subscription.dispose()
    expect(editor.getText()).toBe('qa\nqb')
  })

  it('outdents each row the language closes a block on', () => {
    const editor = editorWith('if (a) {\n  b()\n  |\n}\nif (c) {\n  d()\n  |', { language: 'javascript' })
    editor.insertText('}')
    expect(marked(editor)).toBe('if (a) {\n  b()\n}|\n}\nif (c) {\n  d()\n}|')
  })

  it('types at two cursors of one row as Atom does, outdent or not', () => {
    const editor = editorWith('if (a) {\n  |x|', { language: 'javascript' })
    editor.insertText('}')
    expect(marked(editor)).toBe('if (a) {\n}|x}|')
    editor.insertText(' ')
    expect(marked(editor)).toBe('if (a) {\n} |x} |')
  })

  it('moves peers’ and users’ markers as typing at each selection in turn does', () => {
    const editor = editorWith('ab|cd\nef|gh')
    const marker = editor.markBufferRange([[0, 2], [1, 2]])
    editor.insertText('X')
    expect(marker.getBufferRange()).toEqual(new Range([0, 2], [1, 3]))
  })
})

/** The selections' ranges and directions, for comparing two editors. */
function selectionsOf(editor: TextEditor): string[] {
  return editor.getSelections().map((s) => `${s.getBufferRange().toString()}${s.isReversed() ? ' reversed' : ''}`)
}

describe('typing at several cursors, against inserting at each selection in turn', () => {
  const KEYS = ['x', '}', ' ', '\t', '😀', 'ab', ')', '']
  const LANGUAGES: LanguageId[] = ['text', 'javascript', 'python']
  for (const seed of fuzzSeeds(12)) {
    it(`leaves the same text, selections and markers (seed ${seed})`, () => {
      const random = new Random(seed)
      const text = random.string(60, ['a', ' ', '  ', '\t', '\n', '\r\n', '{', '}', 'if (x) {\n', ':', '😀'])
      const language = random.pick(LANGUAGES)
      const fast = new TextEditor({ text, language })
      const reference = new TextEditor({ text, language })
      for (let step = 0; step < 12; step++) {
        const length = fast.getBuffer().getLength()
        const ranges = Array.from({ length: 1 + random.int(5) }, () => {
          const a = fast.getBuffer().positionForCharacterIndex(random.int(length + 1))
          const b = random.bool(0.7) ? a : fast.getBuffer().positionForCharacterIndex(random.int(length + 1))
          return { range: new Range(a, b), reversed: random.bool(0.3) }
        })
        for (const editor of [fast, reference]) {
          editor.setSelectedBufferRanges(ranges.map((r) => r.range))
          editor.getSelections().forEach((s, i) => {
            if (ranges[i] && !s.isEmpty()) s.setBufferRange(s.getBufferRange(), { reversed: ranges[i]!.reversed })
            if (s.isEmpty()) s.clear()
          })
        }
        const marker = (editor: TextEditor) => editor.markBufferRange(new Range(ranges[0]!.range.start, ranges[ranges.length - 1]!.range.end))
        const markers = [marker(fast), marker(reference)]
        const key = random.pick(KEYS)
        const what = `seed ${seed}, step ${step}, ${language}: typing ${JSON.stringify(key)} at ${selectionsOf(fast).join(', ')} in ${JSON.stringify(fast.getText())}`
        const fastRanges = fast.insertText(key)
        // The reference: Selection#insertText at each selection in buffer order, with the options the editor gives.
        const referenceRanges = reference.transact(() =>
          reference.getSelectionsOrderedByBufferPosition().map((s) => s.insertText(key, { autoIndentNewline: true, autoDecreaseIndent: true })),
        )
        expect(fast.getText(), what).toBe(reference.getText())
        expect(selectionsOf(fast), what).toEqual(selectionsOf(reference))
        expect(fastRanges, what).toEqual(referenceRanges)
        expect(markers[0]!.getBufferRange(), what).toEqual(markers[1]!.getBufferRange())
        for (const m of markers) m.destroy()
      }
    })
  }
})

describe('moves resolved only for those who need them', () => {
  it('resolves no cursor move while nobody listens, and still clears the goal column', () => {
    const editor = editorWith('abcdef\nab\nabcdef')
    editor.setCursorBufferPosition([0, 5])
    const marker = editor.getLastSelection().marker
    expect(marker.hasChangeListeners()).toBe(false)
    editor.moveDown()
    expect(marker.hasChangeListeners()).toBe(true)
    expect(editor.getCursorBufferPosition().toArray()).toEqual([1, 2])
    editor.insertText('x')
    expect(marker.hasChangeListeners()).toBe(false)
    editor.moveDown()
    expect(editor.getCursorBufferPosition().toArray()).toEqual([2, 3])
  })

  it('reports every cursor’s move by typing once the editor has a listener, from where it was then', () => {
    const editor = editorWith('a|\nb|')
    editor.insertText('x')
    const moves: string[] = []
    editor.onDidChangeCursorPosition((event) => moves.push(`${event.oldBufferPosition.toString()} -> ${event.newBufferPosition.toString()} ${event.textChanged}`))
    editor.insertText('y')
    expect(moves).toEqual(['(0, 2) -> (0, 3) true', '(1, 2) -> (1, 3) true'])
  })

  it('gives a selection listener added later the range from its own time', () => {
    const editor = editorWith('ab|')
    editor.moveDown()
    editor.insertText('x')
    editor.insertText('y')
    const selection = editor.getLastSelection()
    const ranges: string[] = []
    selection.onDidChangeRange((event) => ranges.push(`${event.oldBufferRange.toString()} -> ${event.newBufferRange.toString()}`))
    editor.insertText('z')
    expect(ranges).toEqual(['[(0, 4) - (0, 4)] -> [(0, 5) - (0, 5)]'])
  })
})

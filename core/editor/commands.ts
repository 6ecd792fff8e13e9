import type { Selection } from '../selection/selection.ts'
import type { WriteOptions } from '../selection/host.ts'
import { type DeleteMethods, type MoveMethods, type SelectMethods, defineRowMethods } from '../selection/motion-table.ts'
import type { MergeRule, OperationScope } from './operation.ts'
import type { SelectionList } from './selection-list.ts'
import { applyChanges, deletionRange } from './change-list.ts'
import type { SelectionEditing } from '../selection/host.ts'
import { lowerCase, replaceSelectionText, transposeSelection, upperCase } from './case-commands.ts'

/*
 * The editor's commands that apply one Selection method to every local selection. Two tables generate
 * them onto TextEditor: the motion table (`selection/motion-table.ts`: move, select and delete by a
 * motion) and EACH_SELECTION below (edits and selection changes that are not motions). To add a command,
 * add a row; a command that needs more than "every selection, then merge" is a method on TextEditor.
 */

/** What the generated commands need from the editor. */
export interface CommandTarget {
  readonly selections: SelectionList
  readonly scope: OperationScope
  readonly editing: SelectionEditing
}

interface EachRow {
  /** Selection changes merge intersecting selections afterwards; text changes also run as one write. */
  readonly kind: 'select' | 'select-backward' | 'write'
  run(selection: Selection, options: WriteOptions): void
}

/** Commands that run a Selection method on every selection (buffer order for writes), then merge. */
export const EACH_SELECTION = {
  selectAll: { kind: 'select', run: (s) => s.selectAll() },
  selectWordsContainingCursors: { kind: 'select', run: (s) => void s.selectWord() },
  expandOverWord: { kind: 'select', run: (s) => s.expandOverWord() },
  selectLinesContainingCursors: { kind: 'select', run: (s) => s.selectLine() },
  expandOverLine: { kind: 'select', run: (s) => s.expandOverLine() },
  addSelectionBelow: { kind: 'select', run: (s) => s.addSelectionBelow() },
  addSelectionAbove: { kind: 'select-backward', run: (s) => s.addSelectionAbove() },
  deleteToBeginningOfLine: { kind: 'write', run: (s, o) => s.deleteToBeginningOfLine(o) },
  deleteToEndOfLine: { kind: 'write', run: (s, o) => s.deleteToEndOfLine(o) },
  deleteSelectedText: { kind: 'write', run: (s, o) => s.deleteSelectedText(o) },
  joinLines: { kind: 'write', run: (s, o) => s.joinLines(o) },
  indent: { kind: 'write', run: (s, o) => s.indent(o) },
  indentSelectedRows: { kind: 'write', run: (s, o) => s.indentSelectedRows(o) },
  outdentSelectedRows: { kind: 'write', run: (s, o) => s.outdentSelectedRows(o) },
  autoIndentSelectedRows: { kind: 'write', run: (s, o) => s.autoIndentSelectedRows(o) },
  toggleLineCommentsInSelection: { kind: 'write', run: (s, o) => s.toggleLineComments(o) },
  toggleLineComments: { kind: 'write', run: (s, o) => s.toggleLineComments(o) },
  transpose: { kind: 'write', run: (s) => transposeSelection(s) },
  upperCase: { kind: 'write', run: (s) => void replaceSelectionText(s, { selectWordIfEmpty: true }, upperCase) },
  lowerCase: { kind: 'write', run: (s) => void replaceSelectionText(s, { selectWordIfEmpty: true }, lowerCase) },
} satisfies Record<string, EachRow>

type EachName = keyof typeof EACH_SELECTION
type EachOptions<K extends EachName> = (typeof EACH_SELECTION)[K]['kind'] extends 'write' ? WriteOptions & { autoIndent?: boolean } : never

/** `editor.joinLines(options)`, `editor.selectAll()`, … */
export type EachSelectionMethods = { [K in EachName]: [EachOptions<K>] extends [never] ? () => void : (options?: EachOptions<K>) => void }

/** The editor's motion commands: every cursor moves, every selection selects or deletes by the motion. */
export type EditorMotionMethods = MoveMethods & SelectMethods & DeleteMethods<WriteOptions>

const MERGE: Record<EachRow['kind'], MergeRule> = { select: 'intersecting', 'select-backward': 'intersecting-reversed', write: 'intersecting' }

/** Installs both tables' commands on the editor's prototype. */
export function defineEditorCommands<E extends object>(prototype: E, target: (editor: E) => CommandTarget): void {
  defineRowMethods(prototype, 'move', ({ motion }) =>
    function (this: E, count?: unknown) {
      target(this).selections.each('cursors', (s) => s.cursor.moveBy(motion, count ?? 1, { moveToEndOfSelection: true }))
    },
  )
  defineRowMethods(prototype, 'select', ({ motion }) =>
    function (this: E, count?: unknown) {
      target(this).selections.each(motion.backward ? 'intersecting-reversed' : 'intersecting', (s) => s.selectBy(motion, count ?? 1))
    },
  )
  // Deleting is computed first and applied once: every selection's range (or its motion's), then one change list.
  defineRowMethods(prototype, 'delete', ({ motion, delete: name }) =>
    function (this: E, options?: WriteOptions) {
      const { selections, scope, editing } = target(this)
      scope.write(name!, options ?? {}, () => {
        const all = selections.all()
        applyChanges(editing, all.map((s) => ({ range: deletionRange(s, motion), text: '' })))
        for (const s of all) if (!s.destroyed) s.clear()
      }, 'intersecting')
    },
  )
  for (const [name, row] of Object.entries(EACH_SELECTION) as [EachName, EachRow][]) {
    const method = function (this: E, options?: WriteOptions) {
      const { selections, scope } = target(this)
      if (row.kind !== 'write') {
        selections.each(MERGE[row.kind], (s) => row.run(s, {}))
        return
      }
      const opts = options ?? {}
      scope.write(name, opts, () => selections.ordered().forEach((s) => row.run(s, opts)), 'intersecting')
    }
    Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true })
  }
}

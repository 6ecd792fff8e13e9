import { Range } from '../point/range.ts'
import type { Motion } from '../selection/motion-table.ts'
import type { Selection } from '../selection/selection.ts'
import type { SelectionEditing } from '../selection/host.ts'

/** One replacement in buffer coordinates, computed before any of the list is applied. */
export interface Change {
  readonly range: Range
  readonly text: string
}

/**
 * The range a deletion by `motion` removes for one selection: the selection itself, or with none, from
 * the cursor to the motion's target (screen motions are clipped and mapped back to the buffer as a
 * cursor moving there would be).
 */
export function deletionRange(selection: Selection, motion: Motion): Range {
  if (!selection.isEmpty()) return selection.getBufferRange()
  const { cursor, editor } = selection
  const head = cursor.getBufferPosition()
  const context = { nonWordCharacters: cursor.getNonWordCharacters(), goalColumn: null }
  let target
  if (motion.space === 'screen') {
    const screenTarget = motion.to({ ...context, lines: editor.displayLayer }, cursor.getScreenPosition(), 1)
    target = editor.displayLayer.bufferPositionForScreenPosition(screenTarget, motion.clip)
  } else {
    target = editor.buffer.clipPosition(motion.to({ ...context, lines: editor.buffer }, head, 1))
  }
  return target.isLessThan(head) ? new Range(target, head) : new Range(head, target)
}

/**
 * Applies a change list in one pass: overlapping changes join (their texts in order), then they run from
 * the end of the buffer backwards, so each range is still where it was computed. Markers, selections
 * included, follow each change by the usual rules. Runs inside the caller's write operation.
 */
export function applyChanges(editing: SelectionEditing, changes: readonly Change[]): void {
  const sorted = [...changes].sort((a, b) => a.range.compare(b.range))
  const joined: Change[] = []
  for (const change of sorted) {
    const previous = joined[joined.length - 1]
    if (previous && change.range.start.isLessThan(previous.range.end)) {
      joined[joined.length - 1] = { range: previous.range.union(change.range), text: previous.text + change.text }
    } else {
      joined.push(change)
    }
  }
  for (let i = joined.length - 1; i >= 0; i--) {
    const { range, text } = joined[i]!
    if (!range.isEmpty() || text !== '') editing.setBufferTextInRange(range, text, { normalizeLineEndings: false })
  }
}

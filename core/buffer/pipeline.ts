import { Disposable } from '../events/disposable.ts'
import type { BufferChangeEvent } from './text-change.ts'

/**
 * The order in which the parts of an editor see a change to the text, declared once. The buffer's
 * line index comes first (it is the buffer's own state); then these stages; then the public
 * `onDidChange` listeners; then, once per transaction, each stage's after-change step in the same
 * order; and when Yjs has finished the transaction, `onDidChangeText` with its one `ChangeSet`.
 *
 * - anchors: the one anchor index maps every tracked position (markers' ends, selections, folds, the
 *   peers' positions, the published snapshot, the history's pending selections), once;
 * - display: the screen layout follows the change, reading the folds' new positions (markers resolve
 *   screen positions through it);
 * - markers: their change events wait for "after";
 * - language: the syntax tree marks what to re-parse;
 * - history: the undo step's pending selections (entries of the index) have moved;
 * - collaboration: our published selections and the peers' (entries too) have moved.
 *
 * Each part registers under its stage; the order it registered in does not matter.
 */
export const CHANGE_PIPELINE = ['anchors', 'display', 'markers', 'language', 'history', 'collaboration'] as const

/** One stage of the change pipeline. */
export type PipelineStage = (typeof CHANGE_PIPELINE)[number]

/** A synchronous consumer of buffer changes at one stage, run before public listeners. */
export type ChangeHook = (event: BufferChangeEvent) => void

/** The hooks of every stage, run in the declared order. */
export class ChangePipeline {
  private readonly hooks = new Map<PipelineStage, ChangeHook[]>(CHANGE_PIPELINE.map((stage) => [stage, []]))
  private readonly afterHooks = new Map<PipelineStage, (() => void)[]>(CHANGE_PIPELINE.map((stage) => [stage, []]))
  /** The hooks in pipeline order, rebuilt when one is added or removed (a change reads it as is). */
  private ordered: ChangeHook[] = []
  private orderedAfter: (() => void)[] = []

  add(stage: PipelineStage, hook: ChangeHook): Disposable {
    return this.insert(this.hooks, stage, hook)
  }

  addAfter(stage: PipelineStage, hook: () => void): Disposable {
    return this.insert(this.afterHooks, stage, hook)
  }

  /** Runs every stage's hook on one change, in order. */
  run(event: BufferChangeEvent): void {
    for (const hook of this.ordered) hook(event)
  }

  /** Runs every stage's after-change step in order; each runs even if an earlier one threw. */
  runAfter(): void {
    let firstError: { error: unknown } | null = null
    for (const hook of this.orderedAfter) {
      try {
        hook()
      } catch (error) {
        firstError ??= { error }
      }
    }
    if (firstError !== null) throw firstError.error
  }

  clear(): void {
    for (const list of this.hooks.values()) list.length = 0
    for (const list of this.afterHooks.values()) list.length = 0
    this.reorder()
  }

  private insert<H>(table: Map<PipelineStage, H[]>, stage: PipelineStage, hook: H): Disposable {
    const list = table.get(stage)
    if (list === undefined) throw new TypeError(`unknown pipeline stage: ${String(stage)} (one of ${CHANGE_PIPELINE.join(', ')})`)
    list.push(hook)
    this.reorder()
    return new Disposable(() => {
      const i = list.indexOf(hook)
      if (i === -1) return
      list.splice(i, 1)
      this.reorder()
    })
  }

  private reorder(): void {
    this.ordered = CHANGE_PIPELINE.flatMap((stage) => this.hooks.get(stage)!)
    this.orderedAfter = CHANGE_PIPELINE.flatMap((stage) => this.afterHooks.get(stage)!)
  }
}

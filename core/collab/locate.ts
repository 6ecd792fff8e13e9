import * as Y from 'yjs'
import type { TextBuffer } from '../buffer/text-buffer.ts'
import { itemOfType } from '../buffer/yjs-internals.ts'

/**
 * Where a peer's relative position lies in `ytext`: a character offset; 'pending' when the item it is
 * bound to has not arrived yet (its update is still on the way); 'foreign' when it belongs to another
 * type (a peer editing another text of the same document) or can no longer be found.
 *
 * The buffer's content index (core/buffer/content-index.ts) maps the position's item ID to its offset
 * in O(log n), without walking Yjs's item list. It runs only when a peer publishes a new position,
 * never per edit: edits move the markers.
 */
export type Location = number | 'pending' | 'foreign'

export function locate(position: Y.RelativePosition, buffer: TextBuffer): Location {
  const ytext = buffer.ytext
  const doc = ytext.doc
  if (doc === null || !isInText(position, ytext)) return 'foreign'
  const item = position.item
  // Yjs's rule for an empty item: the start of the text when bound left, else its end.
  if (item === null) return position.assoc < 0 ? 0 : ytext.length
  if (Y.getState(doc.store, item.client) <= item.clock) return 'pending'
  // Not following "redone" items: that link exists only in the doc that ran the undo, and every
  // peer must resolve a position to the same place (the owner republishes when its item dies).
  const offset = buffer.offsetForRelativePosition(position, { followRedone: false })
  return offset === null ? 'foreign' : offset
}

/** Whether the position names `ytext` (by root name, or by the item of a nested text). */
function isInText(position: Y.RelativePosition, ytext: Y.Text): boolean {
  const typeItem = itemOfType(ytext)
  if (position.type !== null) return typeItem !== null && Y.compareIDs(position.type, typeItem.id)
  return typeItem === null && position.tname === Y.findRootTypeKey(ytext)
}

/** Whether a position's item has arrived, so that `locate` would no longer answer 'pending'. */
export function hasArrived(position: Y.RelativePosition, doc: Y.Doc): boolean {
  const item = position.item
  return item === null || Y.getState(doc.store, item.client) > item.clock
}

/**
 * `cotext/web`: the editor as a component. Mount it in any element over a `Y.Doc` your own provider
 * syncs, and load `cotext/web/style.css` beside it.
 */
export { mountEditor, type MountEditorOptions, type MountedEditor } from './mount.ts'
export type { EditorView } from './view/editor-view.ts'
export type { PeerActivity } from './view/peer-activity.ts'
export type { PeerLike, PeerUser } from './view/peer-types.ts'
export { PALETTE, textColorOn } from './view/colors.ts'
export { keyHelpRows } from './view/key-help.ts'

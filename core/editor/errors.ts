/** Thrown by a text-modifying method of a read-only editor called without `bypassReadOnly`. */
export class ReadOnlyEditorError extends Error {
  readonly method: string

  constructor(method: string) {
    super(`Cannot ${method}: the editor is read-only (pass {bypassReadOnly: true} to override)`)
    this.name = 'ReadOnlyEditorError'
    this.method = method
  }
}

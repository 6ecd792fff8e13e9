import type { ClipboardMetadata, ClipboardStore } from '../selection/host.ts'

export type { ClipboardMetadata }

/**
 * Copied text plus its metadata, as Atom's Clipboard. Metadata is returned only while the clipboard
 * still holds the text it was written with, so text copied elsewhere pastes plainly. Subclasses may
 * back `readText`/`writeText` with a system clipboard (the web page does).
 */
export class Clipboard implements ClipboardStore {
  private static shared: Clipboard | null = null
  private text = ''
  private metadata: ClipboardMetadata | null = null
  private metadataText: string | null = null

  /** The in-memory clipboard editors share by default (API.md). */
  static getDefault(): Clipboard {
    Clipboard.shared ??= new Clipboard()
    return Clipboard.shared
  }

  /** Writes text (line endings normalised to '\n', as Atom does on Linux) and optional metadata. */
  write(text: string, metadata?: ClipboardMetadata): void {
    if (typeof text !== 'string') throw new TypeError(`text must be a string; got ${typeof text}`)
    const normalized = text.replace(/\r\n?/g, '\n')
    this.writeText(normalized)
    this.metadata = metadata ?? null
    this.metadataText = normalized
  }

  read(): string {
    return this.readText()
  }

  readWithMetadata(): { text: string; metadata?: ClipboardMetadata } {
    const text = this.readText()
    if (this.metadata !== null && this.metadataText === text) return { text, metadata: this.metadata }
    return { text }
  }

  protected readText(): string {
    return this.text
  }

  protected writeText(text: string): void {
    this.text = text
  }
}

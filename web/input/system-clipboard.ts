import { Clipboard } from '../../core/index.ts'

/**
 * Atom's clipboard backed by the system clipboard through the DOM's copy, cut and paste events
 * (the only access a page has without asking for permission). A copy or cut writes here first and
 * the input layer hands `takeWritten()` to the event; a paste event's text is `receive`d before the
 * editor pastes, so Atom's metadata (full lines, per-selection text, indentation) survives exactly
 * when the system clipboard still holds the text we wrote.
 */
export class SystemClipboard extends Clipboard {
  private systemText = ''
  private written: string | null = null

  /** The text a copy or cut just wrote, once; null when nothing was written since the last call. */
  takeWritten(): string | null {
    const text = this.written
    this.written = null
    return text
  }

  /** Makes the system clipboard's current text ours, before a paste. */
  receive(text: string): void {
    this.systemText = text.replace(/\r\n?/g, '\n')
  }

  protected override readText(): string {
    return this.systemText
  }

  protected override writeText(text: string): void {
    this.systemText = text
    this.written = text
  }
}

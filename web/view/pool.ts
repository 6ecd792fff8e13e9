/**
 * Reuses absolutely positioned elements from one render to the next: each render asks for as many
 * as it needs, in order, and the rest are removed. Decorations change every keystroke; creating
 * and dropping their elements each time would churn the DOM and the garbage collector.
 */
export class ElementPool {
  private readonly elements: HTMLElement[] = []
  private used = 0

  constructor(
    private readonly parent: HTMLElement,
    private readonly create: () => HTMLElement,
  ) {}

  begin(): void {
    this.used = 0
  }

  next(): HTMLElement {
    let element = this.elements[this.used]
    if (element === undefined) {
      element = this.create()
      this.elements.push(element)
      this.parent.appendChild(element)
    }
    this.used++
    return element
  }

  /** Removes what this render did not use. */
  end(): void {
    for (const element of this.elements.splice(this.used)) element.remove()
  }
}

/** Sets a style property only when it changes (style writes are not free, even unchanged). */
export function setStyle(element: HTMLElement, name: 'top' | 'left' | 'width' | 'height' | 'right' | 'background' | 'borderColor' | 'color', value: string): void {
  if (element.style[name] !== value) element.style[name] = value
}

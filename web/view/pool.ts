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

type StyleName = 'top' | 'left' | 'width' | 'height' | 'right' | 'background' | 'color' | 'transform'

/** What each element was last given, so unchanged values cost a map lookup instead of a DOM access. */
const written = new WeakMap<HTMLElement, Map<string, string>>()

function lastWritten(element: HTMLElement): Map<string, string> {
  let values = written.get(element)
  if (values === undefined) written.set(element, (values = new Map()))
  return values
}

/** Sets a style property only when it changes (style reads and writes are not free, even unchanged). */
export function setStyle(element: HTMLElement, name: StyleName, value: string): void {
  const values = lastWritten(element)
  if (values.get(name) === value) return
  values.set(name, value)
  element.style[name] = value
}

/** Sets a `data-*` attribute only when it changes (every attribute write invalidates style). */
export function setData(element: HTMLElement, name: string, value: string): void {
  const values = lastWritten(element)
  const key = `data-${name}`
  if (values.get(key) === value) return
  values.set(key, value)
  element.dataset[name] = value
}

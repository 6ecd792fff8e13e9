import type { MountedEditor } from '../mount.ts'

/**
 * Keeps the page inside the visual viewport: when a phone's on-screen keyboard covers the lower part
 * of the window, the page shrinks to what stays visible (so the editor scrolls inside it) and the
 * caret is scrolled back into view above the keyboard. Returns a function that stops it.
 */
export function fitVisualViewport(win: Window, page: HTMLElement, mounted: MountedEditor): () => void {
  const viewport = win.visualViewport
  if (viewport === null) return () => {}
  const fit = (): void => {
    // Pinch zoom also shrinks the visual viewport: only a keyboard (scale 1) resizes the page.
    const covered = viewport.scale === 1 && viewport.height < win.innerHeight - 1
    page.style.height = covered ? `${viewport.height}px` : ''
    page.style.transform = covered && viewport.offsetTop > 0 ? `translateY(${viewport.offsetTop}px)` : ''
    if (mounted.view.hasFocus()) mounted.view.requestAutoscroll()
  }
  viewport.addEventListener('resize', fit)
  viewport.addEventListener('scroll', fit)
  return () => {
    viewport.removeEventListener('resize', fit)
    viewport.removeEventListener('scroll', fit)
  }
}

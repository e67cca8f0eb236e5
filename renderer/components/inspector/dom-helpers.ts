/**
 * The few browser APIs the agents screen needs, reached through narrow types: these files are also compiled
 * by the unit tests without the DOM library.
 */

/** Saves `content` as a download named `fileName` (a Blob and a temporary `<a download>`; no navigation). */
export function downloadText(fileName: string, content: string, type = 'application/json'): void {
  const g = globalThis as unknown as {
    document?: { createElement(tag: 'a'): { href: string; download: string; rel: string; click(): void; remove(): void }; body: { append(n: unknown): void } }
    URL: { createObjectURL(blob: Blob): string; revokeObjectURL(url: string): void }
  }
  if (!g.document) return
  const url = g.URL.createObjectURL(new Blob([content], { type }))
  const a = g.document.createElement('a')
  a.href = url
  a.download = fileName
  a.rel = 'noopener'
  g.document.body.append(a)
  a.click()
  a.remove()
  // Revoke after the click has been handled (the download has its own copy by then).
  setTimeout(() => g.URL.revokeObjectURL(url), 0)
}

/** What the scroll-following code reads and writes on a scrolling element. */
export interface ScrollBox {
  scrollTop: number
  scrollHeight: number
  clientHeight: number
}

/** Within a few pixels of the bottom: new content should keep it pinned there. */
export const isAtBottom = (el: ScrollBox, slack = 24): boolean => el.scrollHeight - el.scrollTop - el.clientHeight <= slack

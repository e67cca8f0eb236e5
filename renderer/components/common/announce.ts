/**
 * A polite spoken line for something that appeared out of the keyboard's way (a permission request while the person
 * types): one visually hidden `aria-live` element in the page's body, its words replaced by each announcement.
 * Structural DOM types: components that call it are type-checked without the DOM lib too (unit tests render them in Node).
 */
interface LiveElement {
  className: string
  textContent: string | null
  isConnected: boolean
  setAttribute(name: string, value: string): void
  replaceChildren(...nodes: LiveElement[]): void
}
interface AnnounceDocument {
  body: { append(node: LiveElement): void } | null
  createElement(tag: 'div' | 'p'): LiveElement
}

let region: LiveElement | null = null

export function announce(text: string): void {
  const doc = (globalThis as unknown as { document?: AnnounceDocument }).document
  if (!doc?.body) return
  if (!region?.isConnected) {
    region = doc.createElement('div')
    region.className = 'sr-only'
    region.setAttribute('aria-live', 'polite')
    region.setAttribute('data-announcer', '')
    doc.body.append(region)
  }
  // A new line in place of the last: an addition is read, so the same words twice (two requests with one title) are too.
  const line = doc.createElement('p')
  line.textContent = text
  region.replaceChildren(line)
}

/**
 * A page opened from the keyboard (Settings, Agents) gives the focus to its title, in its header, outside the part of the
 * page that scrolls: ↓, PageDown, Space or End did nothing there, and what had no control to Tab to (Settings' keyboard
 * shortcuts) could not be reached. From the title, these keys scroll the page's body as they scroll a document.
 * Structural DOM types: type-checked without the DOM lib too.
 */

/** What a scroll key needs of the box it scrolls. */
interface Scroller {
  readonly clientHeight: number
  readonly scrollHeight: number
  scrollBy(options: { top: number }): void
  scrollTo(options: { top: number }): void
}

/** A line's worth (what ↓ scrolls a document by). */
const LINE_PX = 40

/** Scrolls `scroller` as `key` scrolls a document; whether it was such a key (and the event should be taken). */
export function scrollForKey(scroller: Scroller | null, event: { key: string; shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }): boolean {
  if (!scroller || event.altKey || event.ctrlKey || event.metaKey) return false
  // A page's worth, less a line of overlap so the reader keeps their place (as browsers do).
  const page = Math.max(LINE_PX, scroller.clientHeight - LINE_PX)
  switch (event.key) {
    case 'ArrowDown':
      scroller.scrollBy({ top: LINE_PX })
      return true
    case 'ArrowUp':
      scroller.scrollBy({ top: -LINE_PX })
      return true
    case 'PageDown':
      scroller.scrollBy({ top: page })
      return true
    case 'PageUp':
      scroller.scrollBy({ top: -page })
      return true
    case ' ':
      scroller.scrollBy({ top: event.shiftKey ? -page : page })
      return true
    case 'Home':
      scroller.scrollTo({ top: 0 })
      return true
    case 'End':
      scroller.scrollTo({ top: scroller.scrollHeight })
      return true
    default:
      return false
  }
}

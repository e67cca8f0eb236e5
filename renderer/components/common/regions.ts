/**
 * F6 and Shift+F6 move the keyboard between the window's regions, as in VS Code, Slack and the browsers: the sidebar
 * (at its open session), the transcript and the message box. The full-window pages (Agents, Settings) are modal: their
 * own keys hold there. From the message box, the sidebar took about 15 Shift+Tabs.
 * Structural DOM types: type-checked without the DOM lib too (unit tests run in Node).
 */

interface RegionElement {
  focus(options?: { preventScroll?: boolean }): void
  contains(node: unknown): boolean
  getClientRects(): { length: number }
}
interface RegionDocument {
  activeElement: unknown
  querySelector(selector: string): RegionElement | null
}

/** F6 without Ctrl, Alt or ⌘: forwards; with Shift: backwards. Null for any other key. */
export function regionKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): 'next' | 'previous' | null {
  if (event.key !== 'F6' || event.ctrlKey || event.metaKey || event.altKey) return null
  return event.shiftKey ? 'previous' : 'next'
}

/** The index of the region after (or before) the one holding the focus, over `count` regions; from none, the first (or last). */
export function nextRegion(current: number, count: number, direction: 'next' | 'previous'): number {
  if (count === 0) return -1
  if (current < 0) return direction === 'next' ? 0 : count - 1
  return (current + (direction === 'next' ? 1 : count - 1)) % count
}

/** Each region: where it is, and what in it takes the focus (the first that is shown). */
const REGIONS: { within: string; targets: string[] }[] = [
  {
    within: 'nav[aria-label="Agents and sessions"]',
    targets: ['.session-list .session-item[aria-current="page"]', '.session-list .session-item', 'button'],
  },
  { within: 'main [role="log"][aria-label="Transcript"]', targets: [] },
  { within: 'main .composer', targets: ['textarea'] },
]

/**
 * Moves the focus to the next region (or the previous one); false when it did nothing (a modal dialog is open: its
 * own keys hold, or no region is shown). A region that is not shown (no session open: no transcript) is passed over.
 */
export function moveToRegion(doc: RegionDocument, direction: 'next' | 'previous'): boolean {
  if (doc.querySelector('[aria-modal="true"]')) return false
  const shown = (el: RegionElement | null): el is RegionElement => el !== null && el.getClientRects().length > 0
  const regions: { region: RegionElement; target: RegionElement }[] = []
  for (const { within, targets } of REGIONS) {
    const region = doc.querySelector(within)
    if (!shown(region)) continue
    let target: RegionElement | null = null
    for (const selector of targets) {
      const candidate = doc.querySelector(`${within} ${selector}`)
      if (shown(candidate)) {
        target = candidate
        break
      }
    }
    regions.push({ region, target: target ?? region })
  }
  const current = regions.findIndex((r) => r.region.contains(doc.activeElement))
  const next = nextRegion(current, regions.length, direction)
  if (next < 0) return false
  regions[next]!.target.focus()
  return true
}

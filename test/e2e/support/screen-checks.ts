import type { Page } from 'playwright'

/**
 * What the polish walks check on every screen they shoot.
 */

/** Whether anything on the page is cut at its right edge: the document wider than the window, or a scrolled box that scrolls sideways. */
export const cutAcross = (page: Page) =>
  page.evaluate(() => {
    const cut: string[] = []
    if (document.documentElement.scrollWidth > innerWidth + 1) cut.push('document')
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const style = getComputedStyle(el)
      if (el.scrollWidth > el.clientWidth + 1 && (style.overflowX === 'auto' || style.overflowX === 'scroll') && !el.matches('pre, pre *, code, .xterm *, .diff-view *, [role="grid"], [role="grid"] *, .perm-code, textarea'))
        cut.push(`${el.tagName.toLowerCase()}.${el.className}`)
    }
    return cut
  })

/** The element that has the focus: whether the keyboard's place shows (a ring) and is in the window. */
export const focusShown = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return 'nothing focused'
    // A ring: an outline, or a shadow spread all round (0 0 0 Npx), not a card's or a popover's drop shadow.
    const ringed = (node: Element) => {
      const style = getComputedStyle(node)
      return style.boxShadow.includes('0px 0px 0px') || (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
    }
    // Its own ring, or its box's (the message box rings the whole composer, :focus-within).
    const ring = ringed(el) || (el.parentElement?.matches(':focus-within') === true && ringed(el.parentElement))
    const r = el.getBoundingClientRect()
    const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth
    return ring && inView ? 'shown' : `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}" ring=${ring} inView=${inView}`
  })

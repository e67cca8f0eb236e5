import { useLayoutEffect, type RefObject } from 'react'

/** What Tab stops at: enabled controls and links, and elements given a place in the tab order, that show. */
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])'

/** A radio button Tab passes over: a group with a checked button stops at that one only. */
const skippedRadio = (el: HTMLElement, root: HTMLElement): boolean =>
  el instanceof HTMLInputElement &&
  el.type === 'radio' &&
  !el.checked &&
  el.name !== '' &&
  Array.from(root.querySelectorAll<HTMLInputElement>('input[type="radio"]')).some((other) => other.name === el.name && other.form === el.form && other.checked)

/** The elements of `root` that Tab stops at, in order (hidden ones, inert ones and `tabindex="-1"` left out). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (el) =>
      el.tabIndex >= 0 &&
      el.getClientRects().length > 0 &&
      el.closest('[inert]') === null &&
      getComputedStyle(el).visibility !== 'hidden' &&
      !skippedRadio(el, root),
  )
}

/**
 * Keeps Tab inside `root`: from its last stop Tab goes to its first, and Shift+Tab from its first (or from the
 * dialog's title, which has the focus when it opens) to its last. Elsewhere the browser moves as usual.
 */
export function keepTabInside(event: KeyboardEvent, root: HTMLElement): void {
  if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
  const stops = tabStops(root)
  const active = document.activeElement
  const at = active instanceof HTMLElement ? stops.indexOf(active) : -1
  const inside = active instanceof Node && root.contains(active)
  let to: HTMLElement | undefined
  if (stops.length === 0) to = undefined
  else if (event.shiftKey) to = at <= 0 ? stops.at(-1) : undefined
  else if (at === stops.length - 1 || !inside) to = stops[0]
  if (to === undefined && stops.length > 0) return
  event.preventDefault()
  to?.focus()
}

/**
 * A modal dialog's keyboard: Tab stays inside `ref`'s element while it is shown, and when it goes the focus goes back
 * to what had it when it opened (the control that opened it), unless the focus has gone somewhere else meanwhile or
 * that control is gone. Call it before the dialog moves the focus into itself (its own effects run after this).
 */
export function useModalFocus(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const root = ref.current
    if (!root) return
    const active = document.activeElement
    const opener = active instanceof HTMLElement && active !== document.body && !root.contains(active) ? active : null
    const onKeyDown = (event: KeyboardEvent) => keepTabInside(event, root)
    root.addEventListener('keydown', onKeyDown)
    return () => {
      root.removeEventListener('keydown', onKeyDown)
      // Once the dialog has left the page (a modal <dialog> keeps the rest inert until then), where the focus fell to it.
      queueMicrotask(() => {
        const now = document.activeElement
        const lost = now === null || now === document.body || !now.isConnected || root.contains(now)
        if (lost && opener?.isConnected && !(opener as HTMLButtonElement).disabled) opener.focus()
      })
    }
  }, [ref])
}

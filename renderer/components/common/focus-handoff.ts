/**
 * The keyboard's next place when what held it goes away with the view: closing a session from its header (its Close
 * button, and the whole session screen, leave) hands the focus to the view shown next, which takes it when it mounts,
 * so it does not fall to the page's body. Only while the focus is on the body: a person who moved on keeps their place.
 * Structural DOM types: type-checked without the DOM lib too.
 */
let handing = false

/** The view that holds the focus is about to go: the next one to ask takes it. */
export function handFocusOn(): void {
  handing = true
}

/** The view did not go after all (the close failed). */
export function cancelFocusHandoff(): void {
  handing = false
}

/** Takes the focus handed on, if any, on `target` (a view's first control, as it mounts). */
export function takeHandedFocus(target: { focus(): void } | null): void {
  if (!handing || !target) return
  handing = false
  const doc = (globalThis as { document?: { activeElement: unknown; body: unknown } }).document
  if (doc && (doc.activeElement === null || doc.activeElement === doc.body)) target.focus()
}

/**
 * "Bring this request to the person": a request id waiting to be focused. The transcript is virtualized,
 * so the prompt may mount only after its row is scrolled into view; whichever `PermissionPrompt` carries
 * the id takes the focus when it is (or becomes) mounted, and clears the target so it happens once.
 */
type Listener = () => void

let target: { requestId: string; nonce: number } | null = null
let nonce = 0
const listeners = new Set<Listener>()

/** Ask the prompt of `requestId` to take the keyboard focus (now or as soon as it mounts). */
export function requestPromptFocus(requestId: string): void {
  target = { requestId, nonce: ++nonce }
  for (const listener of [...listeners]) listener()
}

/** The pending focus target, if any (for `useSyncExternalStore`). */
export function promptFocusTarget(): { requestId: string; nonce: number } | null {
  return target
}

export function subscribePromptFocus(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The prompt took the focus: later mounts of the same prompt must not steal it again. */
export function clearPromptFocus(requestId: string): void {
  if (target?.requestId === requestId) target = null
}

/** What of the DOM the hand-over below needs (a structural type: this file is type-checked without the DOM lib too). */
interface FocusableLike {
  focus(): void
}
interface DocumentLike {
  activeElement: unknown
  body: unknown
  querySelector(selector: string): FocusableLike | null
}

/** Whether the keyboard focus is inside `root`. */
export function holdsFocus(root: { contains?(node: unknown): boolean } | null): boolean {
  const doc = (globalThis as { document?: DocumentLike }).document
  return !!doc && !!root?.contains && root.contains(doc.activeElement)
}

/**
 * A prompt or a form answered from inside it (a click on an option, a key) loses its buttons, and the focus with them:
 * it goes on to the next request waiting on the page (the prompt or the form itself, never an option or a field: Enter
 * must not approve or accept),
 * else to the message box, so the keyboard is where the person continues. Unless the focus has gone somewhere else
 * since (it is on the page's body only when it was dropped).
 */
export function focusAfterAnswer(): void {
  // After the page has settled: the answered prompt is gone from it, the next one (if any) is on it.
  setTimeout(() => {
    const doc = (globalThis as { document?: DocumentLike }).document
    if (!doc || (doc.activeElement !== null && doc.activeElement !== doc.body)) return
    // The first request still waiting, in the page's order: a permission prompt or a form (eli-card, pending).
    const next = doc.querySelector('.perm-prompt[role="alertdialog"], .eli-card.eli-status-pending') ?? doc.querySelector('textarea[aria-label="Message"]')
    next?.focus()
  }, 0)
}

/** Requests that have appeared on this page (their prompt mounted once), newest last, at most {@link ARRIVALS_KEPT}. */
const arrived = new Set<string>()
const ARRIVALS_KEPT = 500

/** What of the DOM {@link onArrival} reads (structural, as above). */
interface ArrivalDocument extends DocumentLike {
  querySelector(selector: string): (FocusableLike & { value?: string; contains?(node: unknown): boolean }) | null
}

/**
 * A request appearing, a permission prompt or an agent's question (its first mount on this page: the transcript mounts
 * rows again as they scroll into view, and those must not pull the view back), says whether it takes the keyboard
 * focus. It does when the focus is free: on the page's body, or in the composer with nothing typed in its message box
 * (the person sent a message and waits), and no modal page or dialog is open: 'focus'. The person typing the next
 * message, reading elsewhere with the keyboard, or answering another request keeps the focus: 'announce' (read out,
 * politely). A request mounted again: 'seen'.
 */
export function onArrival(requestId: string): 'focus' | 'announce' | 'seen' {
  if (arrived.has(requestId)) return 'seen'
  arrived.add(requestId)
  if (arrived.size > ARRIVALS_KEPT) arrived.delete(arrived.values().next().value as string)
  const doc = (globalThis as { document?: ArrivalDocument }).document
  if (!doc || doc.querySelector('[aria-modal="true"]')) return 'announce'
  const active = doc.activeElement
  if (active === null || active === doc.body) return 'focus'
  const composer = doc.querySelector('form.composer')
  const box = doc.querySelector('textarea[aria-label="Message"]')
  return composer?.contains?.(active) && (box?.value ?? '') === '' ? 'focus' : 'announce'
}

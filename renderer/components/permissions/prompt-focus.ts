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

/**
 * Text the person had typed, carried from one session's message box to a new session's ("New session here" after a
 * sign-in that did not reach the session, or in place of a session that cannot continue). One slot: the session just
 * created takes it when its screen mounts, and any later carry replaces it, so nothing accumulates.
 */
let slot: { sessionId: string; text: string } | null = null

/** Keeps `text` for the new session `sessionId`'s message box (empty text: nothing to carry). */
export function carryDraft(sessionId: string, text: string): void {
  slot = text.trim() === '' ? null : { sessionId, text }
}

/** The text carried to `sessionId`, if any (the slot is kept until {@link forgetCarriedDraft}). */
export function carriedDraft(sessionId: string): string | null {
  return slot?.sessionId === sessionId ? slot.text : null
}

/** The session's screen has taken its text: the slot is emptied. */
export function forgetCarriedDraft(sessionId: string): void {
  if (slot?.sessionId === sessionId) slot = null
}

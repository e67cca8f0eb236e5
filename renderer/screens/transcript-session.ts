/**
 * Which copy of the session the transcript renders. It renders a deferred copy (React slices that render, so a
 * flood never makes one long task), with one exception: the person's own message is never deferred. A session
 * whose newest entry is the prompt just sent becomes a floor: the transcript shows at least that, in the same
 * commit as "Working", so a deferred render that keeps restarting under the agent's first updates can never
 * paint them before the message (or scroll past a message that was never shown).
 */
import { useDeferredValue, useRef } from 'react'
import type { SessionState } from '../../common/session/types'

/** The new floor: `session` when its newest entry is a local prompt newer than `floor`, else `floor`. */
export function nextFloor(floor: SessionState | undefined, session: SessionState | undefined): SessionState | undefined {
  if (!session) return floor
  const last = session.entries[session.entries.length - 1]
  if (last?.kind !== 'user_message' || !last.local) return floor
  return floor?.sessionId === session.sessionId && floor.seq >= session.seq ? floor : session
}

/** The deferred copy, unless it is older than the floor (of the same session). */
export function pickTranscriptSession(floor: SessionState | undefined, deferred: SessionState | undefined): SessionState | undefined {
  return floor && deferred && floor.sessionId === deferred.sessionId && floor.seq > deferred.seq ? floor : deferred
}

export function useTranscriptSession(session: SessionState | undefined): SessionState | undefined {
  const deferred = useDeferredValue(session)
  // A ref written while rendering: a discarded render leaves a floor that was real state, which is harmless.
  const floor = useRef<SessionState | undefined>(undefined)
  floor.current = nextFloor(floor.current, session)
  return pickTranscriptSession(floor.current, deferred)
}

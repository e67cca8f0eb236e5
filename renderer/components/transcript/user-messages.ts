/**
 * Where the person's messages are in a transcript, kept up to date as entries are appended: the transcript asks for
 * the last one (sent, or at all) at every render, and scanning back for it went over every entry of a turn that
 * streamed thousands of them (a quadratic cost over the turn, half a second over a 400,000-update flood).
 */
import type { Entry } from '../../../common/session/types'

export interface UserMessagePositions {
  /** Positions of the user messages among the entries scanned, in order. */
  at: number[]
  /** How many entries were scanned, and the ids of the first and last of them (another list if they differ). */
  scanned: number
  firstId: string | undefined
  lastId: string | undefined
}

export const noUserMessages = (): UserMessagePositions => ({ at: [], scanned: 0, firstId: undefined, lastId: undefined })

/**
 * `known` brought up to date with `entries` (in place; returned). Entries are only appended, never moved, so only
 * the new ones are scanned; a list that is not a continuation of the one scanned (shorter, or another first or
 * last entry where the scan ended) is scanned again whole.
 */
export function userMessagePositions(entries: readonly Entry[], known: UserMessagePositions): UserMessagePositions {
  const n = known.scanned
  if (n > 0 && (entries.length < n || entries[0]?.id !== known.firstId || entries[n - 1]?.id !== known.lastId)) {
    known.at = []
    known.scanned = 0
  }
  for (let i = known.scanned; i < entries.length; i++) if (entries[i]!.kind === 'user_message') known.at.push(i)
  known.scanned = entries.length
  known.firstId = entries[0]?.id
  known.lastId = entries[entries.length - 1]?.id
  return known
}

/** The last user message at all, and the last one that went through (not one the agent refused), or -1. */
export function lastPrompts(entries: readonly Entry[], known: UserMessagePositions): { lastPrompt: number; lastSent: number } {
  const { at } = userMessagePositions(entries, known)
  let lastSent = -1
  for (let k = at.length - 1; k >= 0; k--) {
    const entry = entries[at[k]!]
    if (entry?.kind === 'user_message' && !entry.notSent) {
      lastSent = at[k]!
      break
    }
  }
  return { lastPrompt: at[at.length - 1] ?? -1, lastSent }
}

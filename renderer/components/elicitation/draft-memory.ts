import type { Draft } from './validate'

/**
 * What the person typed into forms, by request id, so a form that leaves the page and comes back (another session
 * shown, its row scrolled out of the transcript's rendered range) comes back as they left it. Page memory only: a
 * form still waiting keeps its draft; an accepted one keeps what was sent (an answered form shows it); a declined,
 * cancelled or abandoned one forgets it. The newest few hundred are kept.
 */
const drafts = new Map<string, Draft>()
const LIMIT = 200

export function rememberedDraft(requestId: string): Draft | undefined {
  return drafts.get(requestId)
}

export function rememberDraft(requestId: string, draft: Draft): void {
  drafts.delete(requestId)
  drafts.set(requestId, draft)
  while (drafts.size > LIMIT) {
    const oldest = drafts.keys().next().value
    if (oldest === undefined) break
    drafts.delete(oldest)
  }
}

export function forgetDraft(requestId: string): void {
  drafts.delete(requestId)
}

/**
 * A bound on how often something may happen: a burst of `burst` at once, then one more every `refillMs` (a
 * token bucket). For what main does on a renderer's word that reaches outside Bosun (opening a browser tab, a
 * file in an editor): a person never meets it; a compromised renderer calling in a loop does.
 */
export function createBurstLimit(burst: number, refillMs: number, now: () => number = Date.now): { take(): boolean } {
  let tokens = burst
  let filledAt = now()
  return {
    take() {
      const at = now()
      const refilled = Math.floor((at - filledAt) / refillMs)
      if (refilled > 0) {
        tokens = Math.min(burst, tokens + refilled)
        filledAt = tokens === burst ? at : filledAt + refilled * refillMs
      }
      if (tokens === 0) return false
      tokens--
      return true
    },
  }
}

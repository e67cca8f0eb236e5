/**
 * Agent-supplied regular expressions (checklist G16/J9) run on re2js, a linear-time engine with RE2
 * semantics: `^(a+)+$` against `"a"*40+"!"` answers in microseconds instead of backtracking for minutes.
 * The same tester runs in the renderer (`common/elicitation/schema.ts`), so both sides agree.
 */
import { linearPatternTester, type PatternTester } from '../../common/elicitation/schema'

export interface BoundedPatternOptions {
  /** Ignored: matching is linear, no time limit is needed (kept for callers of the old API). */
  timeoutMs?: number
}

export function createBoundedPatternTester(_options: BoundedPatternOptions = {}): PatternTester {
  return linearPatternTester
}

/**
 * Runs agent-supplied regular expressions under a time limit (checklist G16/J9). V8 has no linear-time
 * engine without flags, but `vm` timeouts interrupt a backtracking match, so `^(a+)+$` against
 * `"a"*40+"!"` returns 'unknown' after the limit instead of freezing main.
 *
 * Node-only: the renderer uses `staticPatternTester` from `schema.ts` instead.
 */
import vm from 'node:vm'
import type { PatternTester } from '../../common/elicitation/schema'

export interface BoundedPatternOptions {
  /** Per match, in ms. */
  timeoutMs?: number
}

export function createBoundedPatternTester(options: BoundedPatternOptions = {}): PatternTester {
  const timeout = options.timeoutMs ?? 100
  // One context, reused: the pattern and the value are passed as globals, never spliced into code.
  const sandbox: { pattern: string; value: string } = Object.create(null)
  const context = vm.createContext(sandbox, { codeGeneration: { strings: false, wasm: false } })
  const script = new vm.Script('new RegExp(pattern, "u").test(value)')
  return (pattern, value) => {
    sandbox.pattern = pattern
    sandbox.value = value
    try {
      return script.runInContext(context, { timeout }) === true
    } catch {
      // Timed out (or an invalid pattern, which parsing already refused): not checkable.
      return 'unknown'
    } finally {
      sandbox.pattern = ''
      sandbox.value = ''
    }
  }
}

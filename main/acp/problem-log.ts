/**
 * What goes wrong on one connection's wire, told once: each {@link TransportProblem} is redacted, logged at a bounded
 * rate and fired to listeners; vscode-jsonrpc's own warnings share the same bound.
 */
import { Emitter } from '../base/event'
import type { IDisposable } from '../base/lifecycle'
import type { Logger } from '../base/log'
import type { TransportProblem } from './types'

/** Problems logged one by one; past this, only every power of ten is (one bad agent must not flood the log). */
const LOGGED_PROBLEMS = 10

/** Whether the `count`th of something is logged on its own (`'one'`), as a running count (`'count'`), or not at all. */
function logTurn(count: number): 'one' | 'count' | undefined {
  if (count <= LOGGED_PROBLEMS) return 'one'
  return /^10+$/.test(String(count)) ? 'count' : undefined
}

export class ProblemLog implements IDisposable {
  private readonly emitter = new Emitter<TransportProblem>()
  private count = 0
  readonly onDidReport = this.emitter.event

  /** `redact`: applied to the message and preview (secret values an agent prints). */
  constructor(
    private readonly logger: Logger | undefined,
    private readonly redact: ((text: string) => string) | undefined,
  ) {}

  report(problem: TransportProblem): void {
    // The message may quote the agent too (an id it sent): both are redacted.
    if (this.redact) {
      const redact = this.redact
      problem = { ...problem, message: redact(problem.message), ...(problem.preview ? { preview: redact(problem.preview) } : {}) }
    }
    const count = ++this.count
    // Rate-limited per connection: the first few, then the 100th, 1,000th… with the running count.
    const turn = problem.kind === 'unresponsive' ? 'one' : logTurn(count)
    if (turn === 'one') {
      this.logger?.warn(`${problem.kind}: ${problem.message}${problem.preview ? ` — ${problem.preview}` : ''}`)
    } else if (turn === 'count') {
      this.logger?.warn(`${count} protocol problems from this agent so far (latest: ${problem.kind}: ${problem.message}); only some are logged`)
    }
    this.emitter.fire(problem)
  }

  dispose(): void {
    this.emitter.dispose()
  }
}

/**
 * vscode-jsonrpc's own warnings (one per failed send to a dead or stuck agent), rate-limited like problems; once the
 * connection is `closed` a failed send is expected (the agent is gone or going) and goes to the debug log.
 */
export function toRpcLogger(logger: Logger | undefined, closed: () => boolean) {
  let count = 0
  const warn = (message: string) => {
    if (closed()) return logger?.debug(message)
    count++
    const turn = logTurn(count)
    if (turn === 'one') logger?.warn(message)
    else if (turn === 'count') logger?.warn(`${count} transport warnings so far (latest: ${message}); only some are logged`)
  }
  return {
    error: warn,
    warn,
    info: (message: string) => logger?.debug(message),
    log: (message: string) => logger?.debug(message),
  }
}

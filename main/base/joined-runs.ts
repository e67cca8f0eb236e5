/**
 * Work that starts a process (a connection check, an MCP server check) asked for by the renderer, which is not
 * trusted to ask only once: one run per key at a time (asking again while it runs joins it) and at most `max`
 * keys at once (more are refused with `refusal()`).
 */
import { fail, type Result } from './errors'

export class JoinedRuns<T> {
  private readonly running = new Map<string, Promise<Result<T>>>()

  constructor(
    private readonly max: number,
    private readonly refusal: (max: number) => string,
  ) {}

  run(key: string, start: () => Promise<Result<T>>): Promise<Result<T>> {
    const running = this.running.get(key)
    if (running) return running
    if (this.running.size >= this.max) return Promise.resolve(fail({ kind: 'invalid-argument', message: this.refusal(this.max) }))
    const run = start()
    this.running.set(key, run)
    const done = () => this.running.delete(key)
    run.then(done, done)
    return run
  }
}

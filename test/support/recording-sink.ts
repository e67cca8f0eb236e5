import { events as eventSpecs, type EventName, type EventPayload, type EventSink } from '../../common/contract'

/**
 * An EventSink that records every event and lets tests await the one they expect. Every payload is also
 * checked against the contract's schema; what fails is kept in {@link RecordingSink.violations}, which the
 * integration suite's setup asserts empty after each test (test/support/contract-events.setup.ts).
 */
export class RecordingSink implements EventSink {
  /** Payloads that did not match their event's schema, from every sink, since the last take. */
  private static violations: string[] = []

  static takeViolations(): string[] {
    const taken = RecordingSink.violations
    RecordingSink.violations = []
    return taken
  }

  readonly events: { name: EventName; payload: unknown }[] = []
  private waiters: { name: EventName; predicate: (payload: never) => boolean; resolve: (payload: unknown) => void }[] = []

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    const checked = eventSpecs[name].payload.safeParse(payload)
    if (!checked.success) RecordingSink.violations.push(`${name}: ${checked.error.message.slice(0, 500)} in ${JSON.stringify(payload).slice(0, 300)}`)
    this.events.push({ name, payload })
    for (const waiter of [...this.waiters]) {
      if (waiter.name === name && waiter.predicate(payload as never)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1)
        waiter.resolve(payload)
      }
    }
  }

  of<N extends EventName>(name: N): EventPayload<N>[] {
    return this.events.filter((e) => e.name === name).map((e) => e.payload as EventPayload<N>)
  }

  /** Resolves with the first event (already recorded or future) matching the predicate. */
  next<N extends EventName>(name: N, predicate: (payload: EventPayload<N>) => boolean = () => true): Promise<EventPayload<N>> {
    const seen = this.of(name).find(predicate)
    if (seen !== undefined) return Promise.resolve(seen)
    return new Promise((resolve) => this.waiters.push({ name, predicate: predicate as (p: never) => boolean, resolve: resolve as (p: unknown) => void }))
  }
}

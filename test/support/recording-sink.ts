import type { EventName, EventPayload, EventSink } from '../../preload/contract'

/** An EventSink that records every event and lets tests await the one they expect. */
export class RecordingSink implements EventSink {
  readonly events: { name: EventName; payload: unknown }[] = []
  private waiters: { name: EventName; predicate: (payload: never) => boolean; resolve: (payload: unknown) => void }[] = []

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
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

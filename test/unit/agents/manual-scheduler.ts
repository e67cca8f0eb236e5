import { Emitter, once } from '../../../main/base/event'
import { toDisposable, type IDisposable } from '../../../main/base/lifecycle'
import type { Scheduler } from '../../../main/agents/scheduler'

interface Timer {
  at: number
  ms: number
  fn: () => void
}

/** A {@link Scheduler} whose time only moves when the test says so. */
export class ManualScheduler implements Scheduler {
  private time = 1_700_000_000_000
  private timers: Timer[] = []
  private readonly onDidScheduleEmitter = new Emitter<number>()
  /** Fired with the delay of every timer set. */
  readonly onDidSchedule = this.onDidScheduleEmitter.event

  now(): number {
    return this.time
  }

  setTimeout(fn: () => void, ms: number): IDisposable {
    const timer: Timer = { at: this.time + ms, ms, fn }
    this.timers.push(timer)
    this.onDidScheduleEmitter.fire(ms)
    return toDisposable(() => {
      this.timers = this.timers.filter((t) => t !== timer)
    })
  }

  /** Delays (as set) of the timers still pending. */
  get pending(): number[] {
    return this.timers.map((t) => t.ms)
  }

  /** Resolves with the delay of the next timer set with `ms` (or any), or at once when one is already pending. */
  async nextTimer(ms?: number): Promise<number> {
    const match = this.timers.find((t) => ms === undefined || t.ms === ms)
    if (match) return match.ms
    return once(this.onDidSchedule, (value) => ms === undefined || value === ms)
  }

  /** Moves time forward, running due timers in order. */
  advance(ms: number): void {
    const target = this.time + ms
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.timers = this.timers.filter((t) => t !== due)
      this.time = Math.max(this.time, due.at)
      due.fn()
    }
    this.time = target
  }
}

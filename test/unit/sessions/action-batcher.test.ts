import { describe, expect, it } from 'vitest'
import { ActionBatcher, type Scheduler } from '../../../main/sessions/action-batcher'
import type { SessionAction } from '../../../common/session/types'

function manualScheduler() {
  const timers = new Map<number, () => void>()
  let next = 1
  const scheduler: Scheduler = {
    setTimeout: (fn) => {
      const id = next++
      timers.set(id, fn)
      return id
    },
    clearTimeout: (id) => {
      timers.delete(id as number)
    },
  }
  return {
    scheduler,
    pending: () => timers.size,
    runAll: () => {
      const fns = [...timers.values()]
      timers.clear()
      fns.forEach((fn) => fn())
    },
  }
}

const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })

describe('ActionBatcher', () => {
  it('sends one batch per interval and merges consecutive updates', () => {
    const clock = manualScheduler()
    const flushed: [string, SessionAction[]][] = []
    const batcher = new ActionBatcher((id, actions) => flushed.push([id, actions]), 16, clock.scheduler)
    for (let i = 0; i < 1000; i++) batcher.push('s1', { type: 'updates', updates: [chunk(String(i))] })
    batcher.push('s1', { type: 'turn_ended', stopReason: 'end_turn' })
    batcher.push('s2', { type: 'updates', updates: [chunk('x')] })
    expect(flushed).toHaveLength(0)
    expect(clock.pending()).toBe(1)
    clock.runAll()
    expect(flushed.map(([id]) => id)).toEqual(['s1', 's2'])
    const s1 = flushed[0]![1]
    expect(s1).toHaveLength(2)
    expect(s1[0]!.type === 'updates' && s1[0]!.updates.length).toBe(1000)
    expect(s1[1]!.type).toBe('turn_ended')
  })

  it('schedules nothing when idle, and flushes one session on demand', () => {
    const clock = manualScheduler()
    const flushed: string[] = []
    const batcher = new ActionBatcher((id) => flushed.push(id), 16, clock.scheduler)
    expect(clock.pending()).toBe(0)
    batcher.push('a', { type: 'turn_started' })
    batcher.flush('a')
    expect(flushed).toEqual(['a'])
    expect(clock.pending()).toBe(0)
    batcher.dispose()
    batcher.push('a', { type: 'turn_started' })
    expect(clock.pending()).toBe(0)
  })
})

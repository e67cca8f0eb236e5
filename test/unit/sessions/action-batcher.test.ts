import { describe, expect, it } from 'vitest'
import { ActionBatcher, type Scheduler } from '../../../main/sessions/action-batcher'
import { estimateJsonBytes } from '../../../main/sessions/estimate-json'
import type { SessionAction } from '../../../common/session/types'
import { coalesceTextChunks, isPlainTextChunk } from '../../../common/session/coalesce'
import { seededRandom } from '../../support/seeded-random'

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
  it('a session whose batch throws when applied does not take the other sessions\' batches of that frame with it', () => {
    const clock = manualScheduler()
    const flushed: string[] = []
    const batcher = new ActionBatcher(
      (id) => {
        if (id === 'bad') throw new Error('cannot apply')
        flushed.push(id)
      },
      16,
      clock.scheduler,
    )
    batcher.push('s1', { type: 'updates', updates: [chunk('a')] })
    batcher.push('bad', { type: 'updates', updates: [chunk('b')] })
    batcher.push('s2', { type: 'updates', updates: [chunk('c')] })
    expect(() => clock.runAll()).toThrow('cannot apply')
    expect(flushed).toEqual(['s1', 's2'])
    batcher.dispose()
  })

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

  it('bounds a batch by bytes: a flood goes out in pieces before the timer fires, in order', () => {
    const clock = manualScheduler()
    const flushed: SessionAction[][] = []
    const batcher = new ActionBatcher((_id, actions) => flushed.push(actions), 16, clock.scheduler, { maxBatchBytes: 10_000 })
    const text = 'y'.repeat(900)
    for (let i = 0; i < 100; i++) batcher.push('s1', { type: 'updates', updates: [chunk(`${i} ${text}`)] })
    // ~1 KB each: about ten per batch, all but the last sent before any timer ran.
    expect(flushed.length).toBeGreaterThanOrEqual(9)
    const sizes = flushed.map((actions) => (actions[0]!.type === 'updates' ? actions[0]!.updates.length : 0))
    expect(Math.max(...sizes)).toBeLessThanOrEqual(11)
    clock.runAll()
    const all = flushed.flatMap((actions) => actions.flatMap((a) => (a.type === 'updates' ? a.updates : [])))
    expect(all.map((u) => (u as unknown as { content: { text: string } }).content.text.split(' ')[0])).toEqual(Array.from({ length: 100 }, (_, i) => String(i)))
    expect(clock.pending()).toBe(0)
  })

  it('tells each flush the estimated size of its batch (what a session counts against its limit)', () => {
    const clock = manualScheduler()
    const sizes: number[] = []
    const batcher = new ActionBatcher((_id, _actions, bytes) => sizes.push(bytes), 16, clock.scheduler)
    const update = chunk('z'.repeat(1000))
    batcher.pushUpdate('s1', update)
    batcher.push('s1', { type: 'updates', updates: [update, update] })
    batcher.push('s1', { type: 'turn_ended', stopReason: 'end_turn' })
    clock.runAll()
    expect(sizes).toEqual([3 * estimateJsonBytes(update) + 512])
  })

  it('bounds a batch by time: a queue older than the interval goes out with the next action, timer or not', () => {
    const clock = manualScheduler()
    let now = 0
    const flushed: number[] = []
    const batcher = new ActionBatcher(
      (_id, actions) => flushed.push(actions.length),
      16,
      { ...clock.scheduler, now: () => now },
    )
    batcher.push('s1', { type: 'turn_started' })
    now = 10
    batcher.push('s1', { type: 'cancel_requested' })
    expect(flushed).toEqual([])
    now = 16
    batcher.push('s1', { type: 'updates', updates: [chunk('late')] })
    expect(flushed).toEqual([3])
    expect(clock.pending()).toBe(0)
  })

  it('estimates sizes from the content, so one huge update is a batch of its own', () => {
    expect(estimateJsonBytes(chunk('abc'))).toBeLessThan(200)
    const big = { sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: 'diff', path: '/a', oldText: 'a'.repeat(50_000), newText: 'b'.repeat(50_000) }] }
    expect(estimateJsonBytes(big)).toBeGreaterThan(100_000)
    const clock = manualScheduler()
    const flushed: number[] = []
    const batcher = new ActionBatcher((_id, actions) => flushed.push(actions.length), 16, clock.scheduler, { maxBatchBytes: 64 * 1024 })
    batcher.push('s1', { type: 'updates', updates: [big as never] })
    expect(flushed).toEqual([1])
  })

  it('joins streamed text as it is pushed: a run of plain chunks of one message is one chunk, as coalesceTextChunks makes it', () => {
    const clock = manualScheduler()
    const flushed: SessionAction[][] = []
    const sizes: number[] = []
    const batcher = new ActionBatcher(
      (_id, actions, bytes) => {
        flushed.push(actions)
        sizes.push(bytes)
      },
      16,
      clock.scheduler,
    )
    const message = (text: string, messageId?: string) => ({ sessionUpdate: 'agent_message_chunk', ...(messageId !== undefined ? { messageId } : {}), content: { type: 'text', text } })
    const thought = (text: string) => ({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } })
    const withMeta = { ...message('!', 'm1'), _meta: { kept: true } }
    const pushed = [message('Hel', 'm1'), message('lo', 'm1'), message(', you', 'm1'), thought('hmm '), thought('yes'), message('other', 'm2'), withMeta, message('a', 'm1'), message('b', 'm1')]
    for (const update of pushed) batcher.pushUpdate('s1', update)
    clock.runAll()
    expect(flushed).toHaveLength(1)
    expect(flushed[0]).toEqual([{ type: 'updates', updates: coalesceTextChunks(pushed) }])
    expect(flushed[0]).toEqual([
      { type: 'updates', updates: [message('Hello, you', 'm1'), thought('hmm yes'), message('other', 'm2'), withMeta, message('ab', 'm1')] },
    ])
    // The size is the chunks' as they came.
    expect(sizes).toEqual([pushed.reduce((sum, update) => sum + estimateJsonBytes(update), 0)])
    // What was pushed is not changed.
    expect(pushed[0]).toEqual(message('Hel', 'm1'))
  })

  it('ends a run where something else comes between its chunks (an action, a queue sent on), and joins the next run anew', () => {
    const clock = manualScheduler()
    const flushed: SessionAction[][] = []
    const batcher = new ActionBatcher((_id, actions) => flushed.push(actions), 16, clock.scheduler)
    batcher.pushUpdate('s1', chunk('a'))
    batcher.pushUpdate('s1', chunk('b'))
    batcher.push('s1', { type: 'turn_ended', stopReason: 'end_turn' })
    batcher.pushUpdate('s1', chunk('c'))
    batcher.pushUpdate('s1', chunk('d'))
    batcher.flush('s1')
    batcher.pushUpdate('s1', chunk('e'))
    batcher.pushUpdate('s1', chunk('f'))
    clock.runAll()
    expect(flushed).toEqual([
      [{ type: 'updates', updates: [chunk('ab')] }, { type: 'turn_ended', stopReason: 'end_turn' }, { type: 'updates', updates: [chunk('cd')] }],
      [{ type: 'updates', updates: [chunk('ef')] }],
    ])
  })

  it('told whether each update is a plain text chunk (as the sessions service knows), makes the batches it makes when it checks', () => {
    const random = seededRandom(5)
    const pick = <T>(items: T[]): T => items[random(items.length)]!
    const pushed: unknown[] = []
    for (let i = 0; i < 3000; i++) {
      const roll = random(10)
      if (roll < 7) pushed.push({ sessionUpdate: pick(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']), ...(random(3) > 0 ? { messageId: pick(['m1', 'm2']) } : {}), content: { type: 'text', text: pick(['a', 'b ', '\n']) } })
      else if (roll < 8) pushed.push({ sessionUpdate: 'plan', entries: [] })
      else if (roll < 9) pushed.push({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'Read' })
      else pushed.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', annotations: {} } })
    }
    const run = (told: boolean) => {
      const flushed: { actions: SessionAction[]; bytes: number; joined: boolean }[] = []
      const batcher = new ActionBatcher((_id, actions, bytes, joined) => flushed.push({ actions, bytes, joined }), 16, manualScheduler().scheduler, { maxBatchBytes: 2048, versionOf: () => 1 })
      for (const update of pushed) batcher.pushUpdate('s1', update, told ? isPlainTextChunk(update) : undefined)
      batcher.flush()
      batcher.dispose()
      return flushed
    }
    const checked = run(false)
    expect(checked.length).toBeGreaterThan(10)
    expect(run(true)).toEqual(checked)
  })

  it('a batch whose superseded plans stay as marks is still joined; one that left an update out whole between two runs is not', () => {
    for (const version of [1, 2] as const) {
      const random = seededRandom(version)
      const pick = <T>(items: T[]): T => items[random(items.length)]!
      const flushed: { actions: SessionAction[]; joined: boolean }[] = []
      const batcher = new ActionBatcher((_id, actions, _bytes, joined) => flushed.push({ actions, joined }), 16, manualScheduler().scheduler, { versionOf: () => version })
      for (let round = 0; round < 200; round++) {
        for (let i = 0; i < 12; i++) {
          const roll = random(10)
          if (roll < 6) batcher.pushUpdate('s1', { sessionUpdate: pick(['agent_message_chunk', 'agent_thought_chunk']), ...(random(2) > 0 ? { messageId: 'm1' } : {}), content: { type: 'text', text: pick(['a', 'b ']) } })
          else if (roll < 8) batcher.pushUpdate('s1', version === 1 ? { sessionUpdate: 'plan', entries: [] } : { sessionUpdate: 'plan_update', plan: { planId: 'p', type: 'items', entries: [] } })
          else batcher.pushUpdate('s1', { sessionUpdate: 'available_commands_update', availableCommands: [] })
        }
        batcher.flush('s1')
      }
      const superseded = flushed.filter((batch) => batch.actions.length > 0)
      for (const { actions, joined } of superseded) {
        if (!joined) continue
        for (const action of actions) if (action.type === 'updates') expect(coalesceTextChunks(action.updates)).toBe(action.updates)
      }
      // Both happen: batches with updates left out that need no second look, and batches that do.
      expect(superseded.filter((batch) => batch.joined).length).toBeGreaterThan(5)
      expect(superseded.filter((batch) => !batch.joined).length).toBeGreaterThan(5)
      batcher.dispose()
    }
    const flushed: boolean[] = []
    const batcher = new ActionBatcher((_id, _actions, _bytes, joined) => flushed.push(joined), 16, manualScheduler().scheduler, { versionOf: () => 1 })
    // The first plan goes whole (no chunk without a messageId follows it): the two runs of m1 meet.
    for (const update of [{ ...chunk('a'), messageId: 'm1' }, { sessionUpdate: 'plan', entries: [] }, { ...chunk('b'), messageId: 'm1' }, { sessionUpdate: 'plan', entries: [] }]) batcher.pushUpdate('s1', update)
    batcher.flush('s1')
    // The first plan stays as a mark (the chunk without a messageId after it needs its 'work reported'): nothing meets.
    for (const update of [chunk('a'), { sessionUpdate: 'plan', entries: [] }, chunk('b'), { sessionUpdate: 'plan', entries: [] }]) batcher.pushUpdate('s1', update)
    batcher.flush('s1')
    expect(flushed).toEqual([false, true])
    batcher.dispose()
  })

  it('says a batch is joined when every run of text in it is one chunk already, so the sessions service skips looking again', () => {
    const random = seededRandom(11)
    const pick = <T>(items: T[]): T => items[random(items.length)]!
    const clock = manualScheduler()
    const flushed: { actions: SessionAction[]; joined: boolean }[] = []
    const batcher = new ActionBatcher((_id, actions, _bytes, joined) => flushed.push({ actions, joined }), 16, clock.scheduler)
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 100; i++) {
        const roll = random(10)
        if (roll < 7) batcher.pushUpdate('s1', { sessionUpdate: pick(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']), ...(random(3) > 0 ? { messageId: pick(['m1', 'm2']) } : {}), content: { type: 'text', text: pick(['a', 'b ', '\n']) } })
        else if (roll < 8) batcher.pushUpdate('s1', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'Read' })
        else if (roll < 9) batcher.push('s1', { type: 'turn_started' })
        else batcher.pushUpdate('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', annotations: {} } })
      }
      batcher.flush('s1')
    }
    expect(flushed.every((batch) => batch.joined)).toBe(true)
    for (const { actions } of flushed) for (const action of actions) if (action.type === 'updates') expect(coalesceTextChunks(action.updates)).toBe(action.updates)
    // Updates pushed several at once, or onto the queue's updates, are not joined as they come: the batch says so.
    batcher.push('s1', { type: 'updates', updates: [chunk('a'), chunk('b')] })
    batcher.flush('s1')
    batcher.pushUpdate('s1', chunk('a'))
    batcher.push('s1', { type: 'updates', updates: [chunk('b')] })
    batcher.flush('s1')
    expect(flushed.slice(-2).map((batch) => batch.joined)).toEqual([false, false])
    batcher.dispose()
  })
})

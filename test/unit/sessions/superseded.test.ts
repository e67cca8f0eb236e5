import { describe, expect, it } from 'vitest'
import { coalesceTextChunks } from '../../../common/session/coalesce'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { ProtocolVersion, SessionAction } from '../../../common/session/types'
import { ActionBatcher, type Scheduler } from '../../../main/sessions/action-batcher'
import { dropSuperseded } from '../../../main/sessions/superseded'
import { buildFloodUpdates } from '../../agents/flood-updates'
import { seededRandom } from '../../support/seeded-random'

const text = (text: string, messageId?: string, kind = 'agent_message_chunk') => ({ sessionUpdate: kind, ...(messageId !== undefined ? { messageId } : {}), content: { type: 'text', text } })
const plan = (...steps: string[]) => ({ sessionUpdate: 'plan', entries: steps.map((content) => ({ content, priority: 'medium', status: 'pending' })) })
const planUpdate = (planId: string, ...steps: string[]) => ({ sessionUpdate: 'plan_update', plan: { type: 'items', planId, entries: steps.map((content) => ({ content, priority: 'medium', status: 'pending' })) } })
const commands = (...names: string[]) => ({ sessionUpdate: 'available_commands_update', availableCommands: names.map((name) => ({ name, description: name })) })
const batch = (...updates: unknown[]): SessionAction[] => [{ type: 'updates', updates: updates as never }]

/** The session (all of it but `seq`) that `batches` build, each applied as one batch, as the sessions service applies them. */
function reduce(batches: SessionAction[][], version: ProtocolVersion): unknown {
  let state = createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: version, cwd: '/p' })
  state = applyActions(state, [{ type: 'local_prompt', content: [{ type: 'text', text: 'hello there' }], messageId: 'u1' } as SessionAction])
  for (const actions of batches) state = applyActions(state, actions.map((a) => (a.type === 'updates' ? { type: 'updates', updates: coalesceTextChunks(a.updates) } : a)))
  return JSON.parse(JSON.stringify({ ...state, seq: 0 })) as unknown
}

/** The updates of `actions`, flat. */
const updatesOf = (actions: SessionAction[]) => actions.flatMap((a) => (a.type === 'updates' ? a.updates : []))

describe('dropSuperseded', () => {
  it('v1: of the plans of a batch only the last goes whole; one before a chunk without a messageId keeps its mark', () => {
    const actions = batch(plan('a'), text('x', 'm1'), plan('b'), text('thinking', undefined, 'agent_thought_chunk'), plan('c'), text('y', 'm1'))
    const kept = dropSuperseded(actions, 1)
    expect(updatesOf(kept)).toEqual([text('x', 'm1'), { sessionUpdate: 'plan' }, text('thinking', undefined, 'agent_thought_chunk'), plan('c'), text('y', 'm1')])
    expect(reduce([kept], 1)).toEqual(reduce([actions], 1))
  })

  it('v1: the mark is what keeps a chunk without a messageId out of the message before the plan', () => {
    const actions = batch(text('one', undefined), plan('a'), text('two', undefined), plan('b'))
    const kept = dropSuperseded(actions, 1)
    expect(updatesOf(kept)).toEqual([text('one', undefined), { sessionUpdate: 'plan' }, text('two', undefined), plan('b')])
    // Without the mark the two texts would be one message.
    const unmarked = batch(text('one', undefined), text('two', undefined), plan('b'))
    expect(reduce([unmarked], 1)).not.toEqual(reduce([actions], 1))
    expect(reduce([kept], 1)).toEqual(reduce([actions], 1))
  })

  it('v1: a later plan the reducer ignores (no entries list) replaces nothing; Bosun’s own actions between keep the mark', () => {
    expect(dropSuperseded(batch(plan('a'), { sessionUpdate: 'plan', entries: 'nope' }), 1)).toEqual(batch(plan('a'), { sessionUpdate: 'plan', entries: 'nope' }))
    const actions: SessionAction[] = [...batch(plan('a')), { type: 'turn_ended', stopReason: 'end_turn' }, ...batch(plan('b'))]
    expect(dropSuperseded(actions, 1)).toEqual([...batch({ sessionUpdate: 'plan' }), { type: 'turn_ended', stopReason: 'end_turn' }, ...batch(plan('b'))])
  })

  it('v2: a plan_update goes when a later one of its planId follows with no other plan between; plan is an unknown kind there', () => {
    const actions = batch(planUpdate('p1', 'a'), planUpdate('p1', 'b'), planUpdate('p2', 'c'), planUpdate('p1', 'd'), plan('v1 kind'), plan('v1 kind again'))
    const kept = dropSuperseded(actions, 2)
    expect(updatesOf(kept)).toEqual([planUpdate('p1', 'b'), planUpdate('p2', 'c'), planUpdate('p1', 'd'), plan('v1 kind'), plan('v1 kind again')])
    expect(reduce([kept], 2)).toEqual(reduce([actions], 2))
    // In v1 plan_update is the unknown kind, kept as it came.
    expect(dropSuperseded(batch(planUpdate('p1', 'a'), planUpdate('p1', 'b')), 1)).toEqual(batch(planUpdate('p1', 'a'), planUpdate('p1', 'b')))
  })

  it('command lists: only the last list of a batch goes, in both versions', () => {
    for (const version of [1, 2] as const) {
      const actions = batch(commands('a'), text('x', 'm1'), commands('b'), { sessionUpdate: 'available_commands_update' }, text('y', 'm1'))
      const kept = dropSuperseded(actions, version)
      expect(updatesOf(kept)).toEqual([text('x', 'm1'), commands('b'), { sessionUpdate: 'available_commands_update' }, text('y', 'm1')])
      expect(reduce([kept], version)).toEqual(reduce([actions], version))
    }
  })

  it('returns the batch itself, untouched, when nothing is superseded', () => {
    const actions = batch(plan('a'), text('x', 'm1'), commands('a'))
    const frozen = structuredClone(actions)
    expect(dropSuperseded(actions, 1)).toBe(actions)
    const withPlans = batch(plan('a'), plan('b'))
    const copy = structuredClone(withPlans)
    dropSuperseded(withPlans, 1)
    expect(withPlans).toEqual(copy)
    expect(actions).toEqual(frozen)
  })

  it('the same session with and without it: the flood in batches of every size', () => {
    const flood = buildFloodUpdates(4_000)
    for (const size of [2, 7, 64, 857]) {
      const batches: SessionAction[][] = []
      for (let i = 0; i < flood.length; i += size) batches.push(batch(...flood.slice(i, i + size)))
      expect(reduce(batches.map((b) => dropSuperseded(b, 1)), 1)).toEqual(reduce(batches, 1))
    }
    // Most of the flood's plans go.
    const whole = batch(...flood)
    expect(updatesOf(dropSuperseded(whole, 1)).filter((u) => (u as { entries?: unknown }).entries !== undefined)).toHaveLength(1)
  })

  it('the same session with and without it for mixed, odd batches (seeded), v1 and v2', () => {
    const random = seededRandom(7)
    const pick = <T>(items: T[]): T => items[random(items.length)]!
    let dropped = 0
    for (let round = 0; round < 60; round++) {
      const actions: SessionAction[] = []
      let updates: unknown[] = []
      for (let i = 0; i < 120; i++) {
        const roll = random(20)
        const kind = pick(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'])
        if (roll < 6) updates.push(text(pick(['a', 'hello ', '\n']), pick(['m1', 'm2', undefined]), kind))
        else if (roll < 9) updates.push(plan(...Array.from({ length: random(4) }, (_, n) => `step ${n} of ${i}`)))
        else if (roll < 10) updates.push(pick([{ sessionUpdate: 'plan' }, { sessionUpdate: 'plan', entries: null }, { sessionUpdate: 'plan', entries: [{ content: 5 }] }]))
        else if (roll < 13) updates.push(planUpdate(pick(['p1', 'p2', 'p3']), `step of ${i}`))
        else if (roll < 14) updates.push(pick([{ sessionUpdate: 'plan_update', plan: { planId: 'p1', type: 'markdown', text: 'x' } }, { sessionUpdate: 'plan_update', plan: { planId: 'p2', type: 'items' } }, { sessionUpdate: 'plan_update', plan: null }]))
        else if (roll < 15) updates.push(pick([commands('a', 'b'), commands(), { sessionUpdate: 'available_commands_update', availableCommands: 'x' }]))
        else if (roll < 17) updates.push({ sessionUpdate: 'tool_call', toolCallId: `t${random(5)}`, title: 'Read', status: 'pending' })
        else if (roll < 18) updates.push({ sessionUpdate: 'tool_call_update', toolCallId: `t${random(5)}`, status: 'completed' })
        else if (roll < 19) updates.push({ sessionUpdate: 'agent_message', messageId: pick(['m1', 'm3']), content: [{ type: 'text', text: 'whole' }] })
        else {
          if (updates.length > 0) actions.push({ type: 'updates', updates: updates as never })
          updates = []
          actions.push(pick<SessionAction>([{ type: 'turn_started' }, { type: 'turn_ended', stopReason: 'end_turn' }, { type: 'local_prompt', content: [{ type: 'text', text: 'hi' }], messageId: `u${i}` } as SessionAction]))
        }
      }
      if (updates.length > 0) actions.push({ type: 'updates', updates: updates as never })
      for (const version of [1, 2] as const) {
        const kept = dropSuperseded(actions, version)
        dropped += updatesOf(actions).length - updatesOf(kept).length
        expect(reduce([kept], version)).toEqual(reduce([actions], version))
      }
    }
    // The rounds did leave updates out (the comparison above is not of batches left as they were).
    expect(dropped).toBeGreaterThan(500)
  })
})

describe('ActionBatcher with the sessions’ versions', () => {
  const scheduler: Scheduler = { setTimeout: () => 1, clearTimeout: () => {} }

  it('sends a batch without its superseded plans, and counts the bytes the agent sent', () => {
    const flushed: [SessionAction[], number][] = []
    const batcher = new ActionBatcher((_id, actions, bytes) => flushed.push([actions, bytes]), 16, scheduler, { versionOf: (id) => (id === 'v1' ? 1 : undefined) })
    for (const id of ['v1', 'unknown']) {
      batcher.pushUpdate(id, plan('a', 'b'))
      batcher.pushUpdate(id, text('x', 'm1'))
      batcher.pushUpdate(id, plan('c'))
      batcher.flush(id)
    }
    const [[v1Actions, v1Bytes], [unknownActions, unknownBytes]] = flushed as [[SessionAction[], number], [SessionAction[], number]]
    expect(updatesOf(v1Actions)).toEqual([text('x', 'm1'), plan('c')])
    // A session the batcher has no version for gets its batch as it came.
    expect(updatesOf(unknownActions)).toEqual([plan('a', 'b'), text('x', 'm1'), plan('c')])
    expect(v1Bytes).toBe(unknownBytes)
    batcher.dispose()
  })

  it('looks through a batch only when it holds two updates that may replace one another', () => {
    const asked: string[] = []
    const batcher = new ActionBatcher(() => {}, 16, scheduler, {
      versionOf: (id) => {
        asked.push(id)
        return 1
      },
    })
    batcher.pushUpdate('one', plan('a'))
    batcher.pushUpdate('one', text('x', 'm1'))
    batcher.push('two', { type: 'updates', updates: [plan('a') as never, commands('b') as never] })
    batcher.flush()
    expect(asked).toEqual(['two'])
    batcher.dispose()
  })
})

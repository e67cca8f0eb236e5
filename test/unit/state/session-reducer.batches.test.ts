import { describe, expect, it } from 'vitest'
import { applyActions, applyBatches, createSessionState, SessionBatches } from '../../../common/session/reducer'
import type { SessionAction, SessionState } from '../../../common/session/types'
import { buildFloodUpdates } from '../../agents/flood-updates'
import { seededRandom } from '../../support/seeded-random'
import { deepFreeze } from './helpers'

/** Batches as main sends them: the flood's updates with notices, the person's prompts, turns and a permission among them. */
function batchesOf(seed: number, count: number): SessionAction[][] {
  const random = seededRandom(seed)
  const updates = buildFloodUpdates(count)
  const batches: SessionAction[][] = []
  let i = 0
  let turn = 0
  while (i < updates.length) {
    const batch: SessionAction[] = []
    if (random(6) === 0) batch.push({ type: 'local_prompt', content: [{ type: 'text', text: `prompt ${turn}` }], messageId: `u${turn}` }, { type: 'turn_started' })
    const take = 1 + random(40)
    const slice = updates.slice(i, i + take)
    i += take
    if (random(3) === 0) slice.splice(random(slice.length + 1), 0, { sessionUpdate: 'notice', severity: 'warning', title: `notice ${i}` })
    batch.push({ type: 'updates', updates: slice as never })
    if (random(8) === 0) {
      const toolCallId = `call-${1 + random(Math.max(1, Math.floor(i / 20)))}`
      batch.push({ type: 'permission_requested', request: { requestId: `r${i}`, toolCall: { toolCallId }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] } } as never)
    }
    if (random(10) === 0) batch.push({ type: 'turn_ended', stopReason: 'end_turn' })
    if (random(12) === 0) batch.push({ type: 'dismiss_notice', id: `notice-${1 + random(batches.length + 1)}-0` })
    turn++
    batches.push(batch)
  }
  return batches
}

function fresh(protocolVersion: 1 | 2 = 1): SessionState {
  return createSessionState({ sessionId: 's', agentId: 'a', protocolVersion, cwd: '/p' })
}

describe('applyBatches', () => {
  it('reaches the state applyActions reaches batch by batch: the same entries, notices (and their ids) and seq', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const batches = batchesOf(seed, 1_500)
      let oneByOne = fresh()
      for (const batch of batches) oneByOne = applyActions(oneByOne, batch)
      // Split anywhere: what was applied before each group is the base of the next.
      const random = seededRandom(seed + 100)
      let grouped = fresh()
      for (let i = 0; i < batches.length; ) {
        const take = 1 + random(30)
        grouped = applyBatches(grouped, batches.slice(i, i + take))
        i += take
      }
      expect(grouped.seq).toBe(batches.length)
      expect(grouped).toEqual(oneByOne)
      expect(JSON.stringify(grouped)).toBe(JSON.stringify(oneByOne))
    }
  })

  it('numbers the notices of each batch as that batch alone would', () => {
    const notice = (title: string): SessionAction => ({ type: 'updates', updates: [{ sessionUpdate: 'notice', severity: 'info', title }] as never })
    const state = applyBatches(fresh(2), [[notice('a'), notice('b')], [notice('c')], [], [notice('d')]])
    expect(state.notices.map((n) => n.id)).toEqual(['notice-1-0', 'notice-1-1', 'notice-2-0', 'notice-4-0'])
    expect(state.seq).toBe(4)
  })

  it('never changes the state it is given, and goes on from any state (one that came by structured clone too)', () => {
    const batches = batchesOf(7, 600)
    const base = applyBatches(fresh(), batches.slice(0, 10))
    const before = JSON.stringify(base)
    deepFreeze(base)
    const next = applyBatches(base, batches.slice(10))
    expect(JSON.stringify(base)).toBe(before)
    const cloned = applyBatches(structuredClone(base), batches.slice(10))
    expect(cloned).toEqual(next)
  })

  it('SessionBatches: batches and slices of them applied one after another reach that state too, from a state left unchanged', () => {
    const batches = batchesOf(11, 1_000)
    const base = applyBatches(fresh(), batches.slice(0, 5))
    const before = JSON.stringify(base)
    const open = new SessionBatches(base)
    let expected = base
    for (const batch of batches.slice(5)) {
      open.begin(expected.seq + 1)
      // Each action a slice of its own, as the renderer spreads a batch over frames.
      for (const action of batch) open.apply([action])
      expected = applyActions(expected, batch)
    }
    const reached = open.finish()
    expect(reached).toEqual(expected)
    expect(JSON.stringify(base)).toBe(before)
    expect(() => open.apply([])).toThrow()
  })

  it('is the state itself without batches', () => {
    const state = fresh()
    expect(applyBatches(state, [])).toBe(state)
  })
})

/**
 * Ten agents flooding at once, a little each (2,000 streamed chunks apiece, 20,000 updates into one main): every
 * turn ends, every session holds all of its own text and none of another's, and the control agent still runs a turn.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { brokenSessions, tallyPerFile } from './harness'
import { must, servicesPerTest } from '../../support/services'

const tally = tallyPerFile('many agents')
const start = servicesPerTest()
const AGENTS = 10
const CHUNKS = 2_000
const dir = mkdtempSync(join(tmpdir(), 'bosun-many-agents-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('ten agents flooding at once each keep their own whole text, and every turn ends', async () => {
  const agents = Array.from({ length: AGENTS }, (_, n) => {
    const scenario = join(dir, `flood-${n}.json`)
    writeFileSync(scenario, JSON.stringify({ prompts: { default: [{ type: 'flood', count: CHUNKS, text: `a${n} ` }, { type: 'text', text: `end of ${n}` }] } }))
    return { id: `flood-${n}`, name: `Flood ${n}`, scenario }
  })
  const setup = await start([...agents, { id: 'control', name: 'Control', scenario: 'basic' }])
  // One after another: each first start is confirmed, and main refuses a storm of confirmations (4 wait at most).
  const sessions: string[] = []
  for (const a of agents) sessions.push(must(await setup.handlers.newSession({ agentId: a.id, cwd: setup.workspace })).sessionId)
  const turns = await Promise.all(sessions.map((sessionId) => setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })))
  expect(turns.map((t) => must(t).stopReason)).toEqual(sessions.map(() => 'end_turn'))
  tally.inputs += AGENTS * CHUNKS
  const snapshot = must(await setup.handlers.getSnapshot(undefined))
  sessions.forEach((sessionId, n) => {
    const state = snapshot.sessions.find((s) => s.sessionId === sessionId)!
    const text = JSON.stringify(state.entries)
    const own = text.split(`a${n} `).length - 1
    const others = agents.filter((_, m) => m !== n && text.includes(`a${m} `)).length
    if (own !== CHUNKS || !text.includes(`end of ${n}`) || others > 0) tally.messagesLost++
    expect({ n, own, others }).toEqual({ n, own: CHUNKS, others: 0 })
  })
  tally.sessionsBroken += await brokenSessions(setup)
}, 180_000)

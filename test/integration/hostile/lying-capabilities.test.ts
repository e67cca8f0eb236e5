/**
 * An agent that declares what it lacks: `loadSession`, session list, close and resume, images. Every one of those calls
 * gets -32601. Probed, and it holds: after a restart the session says, in the agent's words, that it cannot continue,
 * and closing it still works.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const start = servicesPerTest()
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const AGENT = String.raw`
let buf = ''
let n = 0
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n')
process.stdin.on('data', (c) => {
  buf += c
  let i
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1)
    const m = JSON.parse(line)
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true }, sessionCapabilities: { list: {}, close: {}, resume: {} } }, authMethods: [] } })
    else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'liar-' + (++n) } })
    else if (m.method === 'session/prompt') send({ id: m.id, result: { stopReason: 'end_turn' } })
    else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'Method not found: ' + m.method } })
  }
})
`

it('an agent that lists resume and load but answers neither: the session says it cannot continue, once, and closes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-liar-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'agent.mjs'), AGENT)
  const t = await start([{ id: 'liar', name: 'Liar', scenario: 'basic', command: { command: process.execPath, args: [join(dir, 'agent.mjs')] } }])
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'liar', cwd: t.workspace }))
  expect(must(await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('end_turn')
  must(await t.handlers.restartAgent({ agentId: 'liar' }))
  const again = await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] })
  expect(again).toMatchObject({ ok: false, error: { kind: 'agent-not-running', data: { cannotContinue: true } } })
  expect(!again.ok && again.error.message).toBe('The agent restarted and could not resume it (Method not found: session/resume), so this session cannot continue. Start a new session.')
  const session = must(await t.handlers.getSnapshot(undefined)).sessions.find((x) => x.sessionId === sessionId)!
  expect(session.cannotContinue?.reason).toContain('could not resume it')
  expect(session.turn.state).toBe('idle')
  // The next message is refused too: the session stays one that cannot continue.
  expect(await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'third' }] })).toMatchObject({ ok: false })
  must(await t.handlers.closeSession({ sessionId }))
})

/**
 * Ids the agent chooses that are longer than what the window can answer with. A permission request under a
 * 1,000-character JSON-RPC id (allowed: Bosun takes ids up to 1,024) got a Bosun id of 1,023 characters, which the
 * contract refuses (512): the person could neither allow, reject nor dismiss it. An option id over 1,024 characters
 * could not be chosen, so an agent could offer a "Reject" that did nothing while "Allow" worked. Now Bosun's id names
 * a long agent id by its hash, and a request offering an option the window cannot answer with is refused, with a note.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { calls } from '../../../common/contract'
import { brokenSessions, hostilePerTest, must, tallyPerFile } from './harness'

const tally = tallyPerFile('long-ids')
const start = hostilePerTest()

const permission = (id: string, rejectId: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'session/request_permission',
    params: {
      sessionId: '{session}',
      toolCall: { toolCallId: `call-${id.length}`, title: 'Run rm -rf build', kind: 'execute' },
      options: [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: rejectId, name: 'Reject', kind: 'reject_once' },
      ],
    },
  })

it('lets the person reject a request the agent sent under a 1,000-character id, and refuses one whose Reject could not be chosen', async () => {
  const setup = await start('script')
  const longId = 'p'.repeat(1_000)
  writeFileSync(join(setup.testHome.home, 'script.json'), JSON.stringify([permission(longId, 'reject'), permission('short', 'r'.repeat(3_000))]))
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  const session = async () => must(await setup.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  await expect.poll(async () => Object.values((await session()).permissions).filter((p) => p.status === 'pending').length).toBe(1)
  const request = Object.values((await session()).permissions).find((p) => p.status === 'pending')!
  // What the window sends is parsed by the contract first: the person's Reject.
  const answer = { requestId: request.requestId, optionId: 'reject' }
  expect(calls.respondPermission.input.safeParse(answer).success).toBe(true)
  must(await setup.handlers.respondPermission(answer))
  expect(must(await turn).stopReason).toBe('end_turn')
  tally.inputs += 2
  const seen = (setup.reports().find((r) => r.seen)?.seen ?? []) as { id: string; error?: { code: number }; result?: { outcome?: { optionId?: string } } }[]
  expect(seen.find((a) => a.id === longId)?.result?.outcome).toEqual({ outcome: 'selected', optionId: 'reject' })
  // The other one never waited for the person: the agent was answered -32602 and the session says why.
  expect(seen.find((a) => a.id === 'short')?.error?.code).toBe(-32602)
  const notice = (await session()).notices.find((n) => n.title.includes('asked for a permission Bosun cannot show'))
  expect(notice?.description).toContain('options[1].optionId is longer than 1,024 characters')
  tally.sessionsBroken += await brokenSessions(setup)
})

it('lets the window send, stop and close a session whose agent named it with 1,000 characters', async () => {
  const setup = await start('huge-session-id', { count: 1_000 })
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  // Bosun's id is the agent's id, a slash and the agent's 1,000 characters: the contract refused every call naming it (512).
  expect(sessionId.length).toBeGreaterThan(1_000)
  const prompt = { sessionId, prompt: [{ type: 'text' as const, text: 'hello' }] }
  for (const [name, input] of [['prompt', prompt], ['cancel', { sessionId }], ['closeSession', { sessionId }], ['setAutoApprove', { sessionId, value: true }]] as const) {
    expect({ name, accepted: calls[name].input.safeParse(input).success }).toEqual({ name, accepted: true })
  }
  expect(must(await setup.handlers.prompt(prompt)).stopReason).toBe('end_turn')
  must(await setup.handlers.closeSession({ sessionId }))
  tally.inputs++
  tally.sessionsBroken += await brokenSessions(setup)
})

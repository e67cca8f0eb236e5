/**
 * Ids as data (class 2): permission option ids named after Object.prototype's members, with NUL, a line feed, bidi
 * controls or 1,024 characters, one that is a number and one of 100,000 characters (no window could answer with it); a
 * tool call id of a million characters. The person's answer reaches the agent as the id it sent, a number and the long
 * one are refused with the reason, and the session goes on.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { brokenSessions, hostilePerTest, must, repeatUntil, tallyPerFile } from './harness'

const tally = tallyPerFile('ids')
const start = hostilePerTest()

const S = '{session}'
const ask = (id: number, optionIds: unknown[], toolCallId = `call-${id}`) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'session/request_permission',
    params: { sessionId: S, toolCall: { toolCallId, title: `Question ${id}`, kind: 'execute' }, options: optionIds.map((optionId, i) => ({ optionId, name: `Option ${i}`, kind: i === 0 ? 'allow_once' : 'reject_once' })) },
  })

const ODD = ['__proto__', 'constructor', 'toString', 'a\u0000b', 'line\nfeed', 'bidi\u202Eexe', 'x'.repeat(1_024)]

it('answers options whose ids are odd strings with those ids, and refuses one whose id is a number or longer than the window can answer with', async () => {
  const setup = await start('script')
  const lines = [...ODD.map((odd, i) => ask(10 + i, [odd, `other-${i}`])), ask(30, [5, 'five']), ask(31, ['a', 'b'], 'c'.repeat(1_000_000)), ask(32, ['x'.repeat(100_000), 'other'])]
  writeFileSync(join(setup.testHome.home, 'script.json'), JSON.stringify(lines))
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  const turn = setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  // Each question is answered with its first option, whatever its id.
  must(
    await repeatUntil(setup, turn, async () => {
      for (const p of must(await setup.handlers.listPendingPermissions(undefined))) {
        must(await setup.handlers.respondPermission({ requestId: p.requestId, optionId: p.options[0]!.optionId }))
      }
    }),
  )
  tally.inputs += lines.length
  const seen = (setup.reports().find((r) => r.seen)?.seen ?? []) as { id: number; result?: { outcome: { optionId?: string } }; error?: { code: number; message: string } }[]
  const answer = (id: number) => seen.find((s) => s.id === id)
  ODD.forEach((odd, i) => expect(answer(10 + i)?.result?.outcome.optionId === odd, `question ${10 + i}`).toBe(true))
  expect(answer(30)?.error).toMatchObject({ code: -32602, message: expect.stringContaining('options[0].optionId must be a non-empty string') })
  expect(answer(31)?.result).toEqual({ outcome: { outcome: 'selected', optionId: 'a' } })
  // 100,000 characters: the window's answer is bounded at 1,024, so the person could not have chosen it (long-ids.test.ts).
  expect(answer(32)?.error).toMatchObject({ code: -32602, message: expect.stringContaining('options[0].optionId is longer than 1,024 characters') })
  tally.sessionsBroken += await brokenSessions(setup)
})

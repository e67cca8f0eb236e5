/**
 * The renderer as attacker, sending prompts through the contract (its runtime schema, then the handler) as a page
 * does: each block stays under its own bound, but blocks × size may not add up past what one message may carry.
 * Nothing too large reaches the agent or the transcript, the refusal says what to do, and the session goes on.
 */
import { expect, it } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { dispatchCall } from '../../../main/web/dispatch'
import { must, sentRequests, servicesPerTest, watchSession } from '../../support/services'

const start = servicesPerTest()

it('refuses a prompt whose blocks together carry too much text or image data, before anything reaches the agent; a person’s long paste is told why', async () => {
  const t = await start([{ id: 'a', name: 'Agent', scenario: 'basic' }])
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'a', cwd: t.workspace }))
  const session = watchSession(t, sessionId)
  const prompt = (blocks: unknown[]) => dispatchCall('prompt', { sessionId, prompt: blocks }, t.handlers, createMemoryLogger())
  const text = (chars: number) => ({ type: 'text', text: 'x'.repeat(chars) })

  // 100 blocks of a million characters each: the schema refuses the total.
  const flood = await prompt(Array.from({ length: 100 }, () => text(1_000_000)))
  expect(flood).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('characters of text in all') } })
  // Three blocks of 600,000 characters (1.7 MiB) pass the schema: main refuses them with the reason and the way on.
  const three = await prompt([text(600_000), text(600_000), text(600_000)])
  expect(three).toMatchObject({
    ok: false,
    error: { kind: 'invalid-argument', message: "This message has 1.7 MiB of text; one message may have up to 1.0 MiB. Put a long text in a file in the session's folder and mention it with @." },
  })
  // One paste of 1.5 million characters (what the composer sends as one block) gets that reason too, not the schema's.
  const paste = await prompt([text(1_500_000)])
  expect(paste).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^This message has 1\.4 MiB of text/) } })
  // Multi-byte text is counted in bytes: 400,000 three-byte characters are 1.1 MiB.
  const wide = await prompt([{ type: 'text', text: '€'.repeat(400_000) }])
  expect(wide).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^This message has 1\.1 MiB of text/) } })

  // Images, each under its own bound: 99 of them (693 million characters) are refused at the schema.
  const image = { type: 'image', mimeType: 'image/png', data: 'A'.repeat(7_000_000) }
  const images = await prompt([text(10), ...Array.from({ length: 99 }, () => image)])
  expect(images).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('characters of image data in all') } })

  expect(await sentRequests(t, 'a', 'session/prompt')).toEqual([])
  expect((await session.state()).entries.filter((e) => e.kind === 'user_message')).toEqual([])
  // Up to the bound goes, and the session goes on.
  must(await prompt([text(500_000), text(500_000)]))
  must(await prompt([{ type: 'text', text: 'hello' }]))
  expect(await sentRequests(t, 'a', 'session/prompt')).toHaveLength(2)
})

/**
 * Prompts beyond text through the composition root: each content kind against an agent that advertises it
 * and one that does not. Main refuses what the agent cannot take (it never reaches the agent), embeds a
 * mentioned text file for agents with embedded context, and keeps mentions inside the session's folder.
 * The scripted agent reports what it received (`prompt received: …`).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()
// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

async function start(scenario: 'prompts-rich' | 'prompts-plain' | 'prompts-rich-v2') {
  const t = await startServices([{ id: 'p', name: 'Prompt agent', scenario, v2: scenario.endsWith('-v2') }])
  mkdirSync(join(t.workspace, 'src'))
  writeFileSync(join(t.workspace, 'src', 'a.ts'), 'export const a = 1\n')
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'p', cwd: t.workspace }))
  const received = async (): Promise<unknown[]> => {
    const state = must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    const text = state.entries
      .filter((e) => e.kind === 'agent_message')
      .flatMap((e) => (e.kind === 'agent_message' ? e.content : []))
      .map((b) => ('text' in b && typeof b.text === 'string' ? b.text : ''))
      .join('')
    const at = text.lastIndexOf('prompt received: ')
    return JSON.parse(text.slice(at + 'prompt received: '.length)) as unknown[]
  }
  return { t, sessionId, received }
}

const report = { type: 'text' as const, text: 'report' }

describe.each(['prompts-rich', 'prompts-rich-v2'] as const)('an agent that takes images and embedded context (%s)', (scenario) => {
  it('reports its capabilities, receives an image as sent and a mentioned file embedded', async () => {
    const { t, sessionId, received } = await start(scenario)
    expect(must(await t.handlers.promptCapabilities({ sessionId }))).toEqual({ image: true, audio: false, embeddedContext: true, known: true })
    const uri = pathToFileURL(join(t.workspace, 'src', 'a.ts')).href
    must(
      await t.handlers.prompt({
        sessionId,
        prompt: [report, { type: 'image', mimeType: 'image/png', data: PNG }, { type: 'resource_link', uri, name: 'a.ts' }],
      }),
    )
    expect(await received()).toEqual([
      report,
      { type: 'image', mimeType: 'image/png', data: PNG.length },
      { type: 'resource', resource: { uri, text: 'export const a = 1\n', mimeType: 'text/plain' } },
    ])
    // The transcript shows what was sent.
    const state = must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    const user = state.entries.find((e) => e.kind === 'user_message')!
    expect(user.kind === 'user_message' && user.content.map((b) => b.type)).toEqual(['text', 'image', 'resource'])
  })

  it('refuses a mention outside the session folder, a fake image and an oversized one', async () => {
    const { t, sessionId } = await start(scenario)
    const outside = await t.handlers.prompt({ sessionId, prompt: [report, { type: 'resource_link', uri: 'file:///etc/passwd', name: 'passwd' }] })
    expect(outside).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: expect.stringContaining('outside') } })
    const fake = await t.handlers.prompt({ sessionId, prompt: [report, { type: 'image', mimeType: 'image/svg+xml', data: PNG }] })
    expect(fake).toMatchObject({ ok: false, error: { message: expect.stringContaining('PNG, JPEG, GIF or WebP') } })
    const big = await t.handlers.prompt({ sessionId, prompt: [report, { type: 'image', mimeType: 'image/png', data: 'A'.repeat(6_000_000 * 4 / 3) }] })
    expect(big).toMatchObject({ ok: false, error: { message: expect.stringContaining('images up to 5.0 MiB') } })
  })
})

describe('an agent without image or embedded-context capabilities', () => {
  it('never receives an image; a mention goes as a link', async () => {
    const { t, sessionId, received } = await start('prompts-plain')
    expect(must(await t.handlers.promptCapabilities({ sessionId }))).toMatchObject({ image: false, embeddedContext: false, known: true })
    const image = await t.handlers.prompt({ sessionId, prompt: [report, { type: 'image', mimeType: 'image/png', data: PNG }] })
    expect(image).toMatchObject({ ok: false, error: { kind: 'invalid-argument', message: 'Prompt agent does not accept images.' } })
    const uri = pathToFileURL(join(t.workspace, 'src', 'a.ts')).href
    must(await t.handlers.prompt({ sessionId, prompt: [report, { type: 'resource_link', uri, name: 'a.ts' }] }))
    expect(await received()).toEqual([report, { type: 'resource_link', uri, name: 'a.ts' }])
    // The refused prompt never reached the agent: one user message only.
    const state = must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(state.entries.filter((e) => e.kind === 'user_message')).toHaveLength(1)
  })

  it('lists the session folder for the @ picker', async () => {
    const { t, sessionId } = await start('prompts-plain')
    mkdirSync(join(t.workspace, 'node_modules', 'x'), { recursive: true })
    const listing = must(await t.handlers.listSessionFiles({ sessionId }))
    expect(listing).toEqual({ root: t.workspace, entries: ['src/', 'src/a.ts'], truncated: false })
  })
})

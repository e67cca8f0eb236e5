/**
 * The session header's selectors end to end (issue 3, 5h): v1 session modes (`session/set_mode`), v1 session models
 * (`session/set_model`, the unstable API Gemini CLI uses) and v2 config
 * options (`session/set_config_option`: a select of category mode and a boolean). Each change goes to the real
 * scripted agent, which answers; the protocol inspector (the app's own API, over the browser host's socket) shows
 * what went over the wire, and the header shows the agent's answer.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { InspectorMessage } from '../../common/contract/agent-tools'
import { createSocketClient, type SocketClient, type SocketLike } from '../../renderer/bridge/socket-client'
import { WS_PATH } from '../../common/wire'
import { scenarioPath } from '../agents/command'
import type { Scenario } from '../agents/scenario'
import { launchPerTest, screenshotDir, type E2eApp } from './support/harness'
import { agentSays, sendPrompt, startSession, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()
let client: SocketClient | undefined
// Runs before the app is closed (hooks run last registered first).
afterEach(() => {
  client?.dispose()
  client = undefined
})

/** A second client of the browser host (as another tab would be), for the inspector API. */
function hostClient(current: E2eApp): SocketClient {
  const { host } = current
  return createSocketClient({
    url: `ws://127.0.0.1:${host.port}${WS_PATH}?token=${encodeURIComponent(host.token)}`,
    connect: (url) => new WebSocket(url, { origin: host.origin }) as unknown as SocketLike,
  })
}

/** The requests Bosun sent for `method`, each with the agent's answer (the response with the same id). */
async function exchanges(api: SocketClient['api'], agentId: string, method: string): Promise<{ params: unknown; answer: InspectorMessage | undefined }[]> {
  const listed = await api.listInspectorMessages({ agentId })
  if (!listed.ok) throw new Error(listed.error.message)
  const { messages } = listed.value
  return messages
    .filter((m) => m.direction === 'out' && m.kind === 'request' && m.method === method)
    .map((request) => ({
      params: (request.message as { params?: unknown }).params,
      answer: messages.find((m) => m.direction === 'in' && (m.kind === 'response' || m.kind === 'error') && m.id === request.id),
    }))
}

/** Light and dark shots of the composer and the session's options under it, where the selectors live. */
async function optionShots(page: Page, name: string): Promise<void> {
  const bottom = page.locator('.session-bottom')
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    // The theme follows the OS (prefers-color-scheme); the screenshot renders a fresh frame.
    expect(await page.evaluate((s) => matchMedia(`(prefers-color-scheme: ${s})`).matches, scheme)).toBe(true)
    await bottom.screenshot({ path: join(screenshotDir, `${name}-${scheme}.png`) })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

describe('mode selector (v1 agent)', () => {
  it('switches the mode with session/set_mode and keeps the choice', async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
    const { page } = app
    client = hostClient(app)
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    const mode = await visible(page.getByRole('combobox', { name: 'Mode' }))
    expect(await mode.inputValue()).toBe('ask')
    expect(await mode.locator('option').allTextContents()).toEqual(['Ask', 'Code'])
    expect(await exchanges(client.api, 'scripted', 'session/set_mode')).toEqual([])

    await mode.selectOption({ label: 'Code' })
    // The agent answered set_mode (and told us the current mode itself); the select shows Code.
    await until<HTMLSelectElement>(mode, (el) => el.value === 'code')
    const sent = await exchanges(client.api, 'scripted', 'session/set_mode')
    expect(sent).toEqual([{ params: { sessionId: expect.any(String), modeId: 'code' }, answer: expect.objectContaining({ kind: 'response' }) }])
    const listed = await client.api.listInspectorMessages({ agentId: 'scripted', method: 'session/update' })
    if (!listed.ok) throw new Error(listed.error.message)
    expect(listed.value.messages.map((m) => (m.message as { params: { update: Record<string, unknown> } }).params.update)).toContainEqual({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'code',
    })

    // It stays selected through a turn (the transcript re-renders, the header does not lose the choice).
    await sendPrompt(page, 'again')
    await visible(agentSays(page, AGENT).getByText('Back again, same session.'))
    await waitIdle(page)
    expect(await mode.inputValue()).toBe('code')
    expect(await exchanges(client.api, 'scripted', 'session/set_mode')).toHaveLength(1)
    await optionShots(page, 'modes-v1')
  })
})

describe('model selector (v1 session models, as Gemini CLI offers them)', () => {
  it('switches the model with session/set_model beside the mode, the header keeping its height', async () => {
    const app = await launch([{ id: 'gemini-like', name: AGENT, scenario: 'session-models' }])
    const { page } = app
    client = hostClient(app)
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    const model = await visible(page.getByRole('combobox', { name: 'Model', exact: true }))
    await visible(page.getByRole('combobox', { name: 'Mode', exact: true }))
    expect(await model.inputValue()).toBe('gemini-2.5-pro')
    expect(await model.locator('option').allTextContents()).toEqual(['Gemini 2.5 Pro', 'Gemini 2.5 Flash', 'Gemini 2.5 Flash Lite'])
    expect(await model.getAttribute('title')).toBe('The most capable model for complex tasks')
    const header = page.locator('header.session-header')
    const height = (await header.boundingBox())!.height

    await model.selectOption({ label: 'Gemini 2.5 Flash' })
    await until<HTMLSelectElement>(model, (el) => el.value === 'gemini-2.5-flash')
    const sent = await exchanges(client.api, 'gemini-like', 'session/set_model')
    expect(sent).toEqual([{ params: { sessionId: expect.any(String), modelId: 'gemini-2.5-flash' }, answer: expect.objectContaining({ kind: 'response' }) }])
    expect((await header.boundingBox())!.height).toBe(height)

    await sendPrompt(page, 'hello')
    await visible(agentSays(page, AGENT).getByText('Done with the model you chose.'))
    await waitIdle(page)
    expect(await model.inputValue()).toBe('gemini-2.5-flash')
    await optionShots(page, 'models-v1')
  })

  it("shows the agent's refusal and keeps the model it has", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
    const scenario = JSON.parse(readFileSync(scenarioPath('session-models'), 'utf8')) as Scenario
    scenario.session = { ...scenario.session, refuseChanges: { code: -32603, message: 'Model gemini-2.5-flash is not available on your plan' } }
    const file = join(dir, 'refusing.json')
    writeFileSync(file, JSON.stringify(scenario))
    try {
      const { page } = await launch.session({ id: 'gemini-like', name: AGENT, scenario: file })
      const model = await visible(page.getByRole('combobox', { name: 'Model', exact: true }))
      const height = (await page.locator('header.session-header').boundingBox())!.height
      await model.selectOption({ label: 'Gemini 2.5 Flash' })
      // With the session's own notices, above its transcript: not in the window's corner over the person's messages.
      const notices = page.getByRole('region', { name: 'Notices' })
      await visible(notices.getByText('Changing the model failed'))
      await visible(notices.getByText('Model gemini-2.5-flash is not available on your plan'))
      expect(await model.inputValue()).toBe('gemini-2.5-pro')
      expect((await page.locator('header.session-header').boundingBox())!.height).toBe(height)
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await page.screenshot({ path: join(screenshotDir, `models-v1-refused-${scheme}.png`) })
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('config options (v2 agent)', () => {
  it('round-trips a mode select and a boolean through session/set_config_option', async () => {
    const app = await launch([{ id: 'scripted-v2', name: AGENT, scenario: 'e2e-config-options', v2: true }])
    const { page } = app
    client = hostClient(app)
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })

    // v2 has no session modes: the mode is the config option of category mode, shown as its own select.
    const mode = await visible(page.getByRole('combobox', { name: 'Mode' }))
    expect(await page.getByRole('combobox', { name: 'Mode' }).count()).toBe(1)
    expect(await mode.inputValue()).toBe('ask')
    expect(await mode.locator('option').allTextContents()).toEqual(['Ask', 'Code', 'Architect'])
    expect(await mode.getAttribute('title')).toBe('How much the agent may do on its own')
    const runTests = await visible(page.getByRole('switch', { name: 'Run tests after edits' }))
    expect(await runTests.getAttribute('aria-checked')).toBe('false')

    await mode.selectOption({ label: 'Architect' })
    await until<HTMLSelectElement>(mode, (el) => el.value === 'architect')
    await runTests.click()
    await until<HTMLElement>(runTests, (el) => el.getAttribute('aria-checked') === 'true')

    // Both reached the agent with the v2 wire shape, and its answers (the full list) carry the new values.
    const sent = await exchanges(client.api, 'scripted-v2', 'session/set_config_option')
    expect(sent.map((s) => s.params)).toEqual([
      { sessionId: expect.any(String), configId: 'mode', type: 'id', value: 'architect' },
      { sessionId: expect.any(String), configId: 'run-tests', type: 'boolean', value: true },
    ])
    const answered = sent.map((s) => (s.answer?.message as { result?: { configOptions?: { configId: string; currentValue: unknown }[] } }).result?.configOptions)
    expect(answered.map((options) => options?.map((o) => [o.configId, o.currentValue]))).toEqual([
      [
        ['mode', 'architect'],
        ['run-tests', false],
      ],
      [
        ['mode', 'architect'],
        ['run-tests', true],
      ],
    ])
    await optionShots(page, 'modes-v2')

    // And back: the switch turns off again through the agent, the select keeps its value.
    await runTests.click()
    await until<HTMLElement>(runTests, (el) => el.getAttribute('aria-checked') === 'false')
    expect((await exchanges(client.api, 'scripted-v2', 'session/set_config_option')).map((s) => s.params)).toHaveLength(3)
    await sendPrompt(page, 'hello')
    await visible(agentSays(page, AGENT).getByText('Noted.'))
    await waitIdle(page)
    expect(await mode.inputValue()).toBe('architect')
    expect(await runTests.getAttribute('aria-checked')).toBe('false')
  })
})

describe('many options (the real codex-acp 2.6.0 session/new)', () => {
  // Codex offers a mode, a collaboration mode, nine models, six reasoning efforts and a fast-mode switch. In a
  // 1280 px window the header once grew past the window: Approvals was cut in half, Agents, Settings and Close
  // session were out of reach. Every control and every button must stay in the window, at any width down to 900 px;
  // the selectors sit under the composer, and the header keeps one row.
  it.each([1280, 1024, 900])('keeps every selector and the app’s buttons inside a %i px window', async (width) => {
    const { page } = await launch.session({ id: 'codex-like', name: AGENT, scenario: 'e2e-many-options' }, { viewport: { width, height: 760 } })
    const header = page.locator('header.session-header')
    const controls = [
      page.getByRole('combobox', { name: 'Mode', exact: true }),
      page.getByRole('combobox', { name: 'Collaboration mode', exact: true }),
      page.getByRole('combobox', { name: 'Model', exact: true }),
      page.getByRole('combobox', { name: 'Reasoning effort', exact: true }),
      page.getByRole('button', { name: /^Waiting for you/ }),
      page.getByRole('button', { name: 'Agents', exact: true }),
      page.getByRole('button', { name: 'Settings', exact: true }),
      page.getByRole('button', { name: 'Close session' }),
    ]
    for (const control of controls) {
      await visible(control)
      const box = (await control.boundingBox())!
      expect(box.x, await control.getAttribute('aria-label') ?? '').toBeGreaterThanOrEqual(0)
      expect(box.x + box.width, `${await control.textContent()} ends at ${box.x + box.width}`).toBeLessThanOrEqual(width)
    }
    // Nothing in the header is cut off or scrolls sideways, and it is one row: as tall as with no selectors at all.
    expect(await header.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0)
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64)
    const options = page.getByRole('group', { name: 'Session options' })
    expect(await options.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0)
    for (const control of controls.slice(0, 4)) expect(await options.locator(control).count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0)
    // The title is still there to read.
    expect((await page.locator('.session-title').boundingBox())!.width).toBeGreaterThan(120)
    if (width === 1280 || width === 900) await optionShots(page, `many-options-${width}`)
  })
})

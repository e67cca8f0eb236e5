/**
 * The Agents page and signing in (issue 6), in the browser host against the real main-process services and
 * the scripted test agent: add an agent from a preset and from scratch (a bad command is refused), check the
 * connection, read the initialize exchange in the protocol inspector and export it, remove an agent; and when
 * `session/new` answers "auth required", sign in from the New session flow and get the session.
 *
 * The env-var login stores its key with keytar: run under `scripts/with-keyring.sh` (as `npm test` does).
 */
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { Locator } from 'playwright'
import { expectAxeCleanInBothThemes } from './support/axe'
import { screenshot, useApp } from './support/harness'
import { agentGroup, gone, messageBox, until, visible } from './support/session-ui'

const here = dirname(fileURLToPath(import.meta.url))
/** A plain-Node ACP agent whose session/new needs ACME_KEY (env-var login) and whose `--login` mode is a terminal login. */
const ENV_AGENT = resolve(here, '..', 'integration', 'agent-tools', 'fixtures', 'env-agent.mjs')
/** Where the OpenCode-style agent's terminal login records that it went through. */
const OPENCODE_STATE = join(tmpdir(), `bosun-e2e-opencode-state-${process.pid}`)

// After the app is closed.
afterAll(() => rmSync(OPENCODE_STATE, { force: true }))

const { app, page } = useApp([
  // No version in the definition: Bosun offers 2 and this v1 agent answers 1 (C10b).
  { id: 'scripted', name: 'Scripted agent', scenario: 'e2e-agents', protocolVersion: 'auto' },
  { id: 'unknown-v1', name: 'Unknown v1 agent', scenario: 'e2e-agents', protocolVersion: 'auto' },
  { id: 'needs-login', name: 'Needs login', scenario: 'auth-v1' },
  { id: 'needs-login-v2', name: 'Needs login v2', scenario: 'auth-v2', v2: true },
  // Agent-driven logins that want a key in the environment, as codex-acp and Gemini CLI do.
  { id: 'codex-style', name: 'Codex-style', scenario: '', command: { command: process.execPath, args: [ENV_AGENT, '--var', 'ACME_API_KEY', '--style', 'codex'] }, protocolVersion: 1 },
  { id: 'gemini-style', name: 'Gemini-style', scenario: '', command: { command: process.execPath, args: [ENV_AGENT, '--var', 'ACME_API_KEY', '--style', 'gemini'] }, secretEnv: ['ACME_API_KEY'], protocolVersion: 1 },
  // Starts sessions signed out and refuses messages until signed in, as claude-agent-acp does.
  { id: 'prompt-auth', name: 'Signed-out agent', scenario: 'e2e-prompt-auth' },
  // The same refusals (-32000) from agents that list no auth methods: Bosun has nothing to sign in with (B10).
  { id: 'prompt-auth-no-methods', name: 'No-login agent', scenario: 'e2e-prompt-auth-no-methods' },
  { id: 'new-auth-no-methods', name: 'No-login starter', scenario: 'e2e-new-auth-no-methods' },
  // Gemini CLI's "Gemini API key": the key goes in the login request's `_meta["api-key"]`.
  { id: 'key-in-login', name: 'Key-in-login', scenario: 'auth-api-key' },
  // Its key is exported in the shell Bosun was started from (set in this process's environment below).
  // Gemini CLI's "AI API Gateway": an address and headers in the login request's `_meta.gateway`.
  { id: 'gateway', name: 'Gateway agent', scenario: 'auth-gateway' },
  // Its only login is `_meta["terminal-auth"]` (this program with other args), as OpenCode's `opencode auth login`.
  { id: 'opencode-style', name: 'OpenCode-style', scenario: '', command: { command: process.execPath, args: [ENV_AGENT, '--style', 'opencode', '--state', OPENCODE_STATE] }, protocolVersion: 1 },
  { id: 'shell-key', name: 'Shell-key agent', scenario: '', command: { command: process.execPath, args: [ENV_AGENT, '--var', 'SHELLKEY_API_KEY', '--style', 'gemini'] }, secretEnv: ['SHELLKEY_API_KEY'], protocolVersion: 1 },
])

interface StoredAgent {
  id: string
  name: string
  command: string
  args: string[]
  env: Record<string, string>
  secretEnv: string[]
  presetId?: string
  protocolVersion?: number
}
const storedAgents = (): StoredAgent[] => (JSON.parse(readFileSync(join(app.home.home, 'agents.json'), 'utf8')) as { agents: StoredAgent[] }).agents
const stored = (name: string) => storedAgents().find((a) => a.name === name)

const agentsDialog = () => page.getByRole('dialog', { name: 'Agents' })
const agentList = () => agentsDialog().getByRole('navigation', { name: 'Agents' })
/** An agent in the list: named "<name> <status> · <command>". */
const listItem = (name: string) => agentList().getByRole('button', { name: new RegExp(`^${escapeRegExp(name)} (Running|Not running|Starting|Restarting|Crashed|Failed to start) · `) })
const editor = (title: string) => agentsDialog().getByRole('form', { name: title })
const tab = (name: string) => agentsDialog().getByRole('tab', { name, exact: true })
const signInDialog = (agentName: string) => page.getByRole('dialog', { name: `Sign in to ${agentName}` })

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

async function screenshotBothSchemes(name: string): Promise<void> {
  await screenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

async function openAgents(): Promise<Locator> {
  if (await agentsDialog().isVisible()) return agentsDialog()
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  return visible(agentsDialog())
}

async function closeAgents(): Promise<void> {
  await agentsDialog().getByRole('button', { name: 'Close', exact: true }).click()
  await gone(agentsDialog())
}

/** The accessible description of a field: the error text it points at with aria-describedby. */
async function describedBy(field: Locator): Promise<string> {
  return field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  )
}

async function waitForArgv(form: Locator, argv: string[]): Promise<void> {
  const list = form.getByRole('list', { name: 'Arguments as passed' })
  await expect.poll(async () => ((await list.count()) > 0 ? list.getByRole('listitem').allInnerTexts() : []), { timeout: 15_000 }).toEqual(argv)
}

/** Opens "New session", picks the agent and folder and presses Start (without waiting for the outcome). */
async function requestSession(agentName: string): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await (await visible(nav.getByRole('button', { name: 'New session', exact: true }))).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  await form.getByRole('combobox', { name: 'Agent' }).selectOption({ label: agentName })
  await form.getByRole('textbox', { name: 'Working folder' }).fill(app.home.workspace)
  await form.getByRole('button', { name: 'Start session' }).click()
  return form
}

/** Waits until the session screen of `agentName`'s only session is up with a usable composer. */
async function sessionReady(agentName: string): Promise<void> {
  await expect.poll(() => agentGroup(page, agentName).getByRole('listitem').count(), { timeout: 30_000 }).toBe(1)
  await visible(messageBox(page))
  await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
}

describe('the Agents page', () => {
  it('adds an agent from a preset: the form is filled, a taken name is refused, the saved agent is listed and written to agents.json', async () => {
    const dialog = await openAgents()
    await visible(listItem('Scripted agent'))
    await screenshotBothSchemes('agents-list')

    // Claude as the preset fills it in: saved as it is.
    await dialog.getByRole('button', { name: 'Add agent' }).click()
    await visible(dialog.getByRole('heading', { name: 'Add an agent' }))
    await dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ }).click()
    let form = await visible(editor('Add agent'))
    expect(await form.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Claude')
    expect(await form.getByRole('textbox', { name: 'Command', exact: true }).inputValue()).toBe('npx')
    expect(await form.getByRole('textbox', { name: 'Arguments', exact: true }).inputValue()).toBe('-y @agentclientprotocol/claude-agent-acp')
    expect(await form.getByRole('textbox', { name: 'Secret 1 name' }).inputValue()).toBe('ANTHROPIC_API_KEY')
    // Its key is offered as a password field, left empty (a Claude login works without it).
    const keyField = form.getByLabel('Value for ANTHROPIC_API_KEY')
    expect(await keyField.getAttribute('type')).toBe('password')
    expect(await keyField.inputValue()).toBe('')
    await waitForArgv(form, ['-y', '@agentclientprotocol/claude-agent-acp'])
    await form.getByRole('button', { name: 'Save', exact: true }).click()
    await gone(form)
    await visible(dialog.getByRole('heading', { name: 'Claude', exact: true, level: 2 }))
    await visible(listItem('Claude'))
    expect(stored('Claude')).toMatchObject({
      command: 'npx',
      args: ['-y', '@agentclientprotocol/claude-agent-acp'],
      secretEnv: ['ANTHROPIC_API_KEY'],
      presetId: 'claude',
    })

    // The same preset again: its name is taken, so Save waits for another one.
    await dialog.getByRole('button', { name: 'Add agent' }).click()
    await dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ }).click()
    form = await visible(editor('Add agent'))
    const name = form.getByRole('textbox', { name: 'Name', exact: true })
    await until<HTMLInputElement>(name, (el) => el.getAttribute('aria-invalid') === 'true', 15_000)
    expect(await describedBy(name)).toBe('Another agent already has this name')
    const save = form.getByRole('button', { name: 'Save', exact: true })
    expect(await save.isDisabled()).toBe(true)
    await name.fill('Claude (work)')
    await until<HTMLInputElement>(name, (el) => el.getAttribute('aria-invalid') !== 'true', 15_000)
    await until<HTMLButtonElement>(save, (el) => !el.disabled, 15_000)
    await save.click()
    await gone(form)
    await visible(listItem('Claude (work)'))
    expect(storedAgents().filter((a) => a.presetId === 'claude').map((a) => a.name)).toEqual(['Claude', 'Claude (work)'])
  })

  it('adds one from scratch: a command that is not on PATH is shown by its field and saving is refused until it is fixed', async () => {
    const dialog = await openAgents()
    await dialog.getByRole('button', { name: 'Add agent' }).click()
    await dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Custom agent/ }).click()
    const form = await visible(editor('Add agent'))
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Env agent')
    const command = form.getByRole('textbox', { name: 'Command', exact: true })
    await command.fill('no-such-agent-xyz')
    // The field is invalid before main has looked the command up ("Enter the program to run" while it was empty):
    // wait for main's answer itself, which takes longer on a slow machine.
    await expect.poll(() => describedBy(command), { timeout: 15_000 }).toBe('no-such-agent-xyz was not found on PATH')
    expect(await command.getAttribute('aria-invalid')).toBe('true')
    await visible(form.getByText('no-such-agent-xyz was not found on PATH'))
    const save = form.getByRole('button', { name: 'Save', exact: true })
    expect(await save.isDisabled()).toBe(true)
    // Enter in a field does not submit past the disabled Save either.
    await form.getByRole('textbox', { name: 'Name', exact: true }).press('Enter')
    await screenshotBothSchemes('agents-editor-error')
    expect(stored('Env agent')).toBeUndefined()
    await visible(form)

    // A real program: the error goes away, and it saves.
    await command.fill(process.execPath)
    await form.getByRole('textbox', { name: 'Arguments', exact: true }).fill(`${ENV_AGENT} --var ACME_KEY`)
    await waitForArgv(form, [ENV_AGENT, '--var', 'ACME_KEY'])
    await until<HTMLInputElement>(command, (el) => el.getAttribute('aria-invalid') !== 'true', 15_000)
    await until<HTMLButtonElement>(save, (el) => !el.disabled, 15_000)
    await save.click()
    await gone(form)
    await visible(listItem('Env agent'))
    expect(stored('Env agent')).toMatchObject({ command: process.execPath, args: [ENV_AGENT, '--var', 'ACME_KEY'], secretEnv: [] })
  })

  it('checks the connection of the scripted agent: name, version, protocol, capabilities and sign-in methods', async () => {
    const dialog = await openAgents()
    await listItem('Scripted agent').click()
    await tab('Check connection').click()
    await dialog.getByRole('button', { name: 'Check connection', exact: true }).click()
    const result = await visible(dialog.getByRole('region', { name: 'Check result' }))
    const facts = await result.locator('dl').innerText()
    expect(facts).toMatch(/Agent\s+Scripted agent/)
    expect(facts).toMatch(/Name\s+scripted-agent/)
    expect(facts).toMatch(/Version\s+2\.3\.0/)
    expect(facts).toMatch(/Protocol\s+ACP version 1/)
    const capabilities = result.getByRole('list', { name: 'Capabilities' })
    for (const label of ['Loads earlier sessions', 'Resumes sessions', 'Images in prompts', 'Embedded context (files) in prompts', 'MCP servers over HTTP', 'Signs out']) {
      expect(await capabilities.getByRole('listitem').filter({ hasText: label }).innerText()).toContain(': supported')
    }
    for (const label of ['Audio in prompts', 'MCP servers over SSE']) {
      expect(await capabilities.getByRole('listitem').filter({ hasText: label }).innerText()).toContain(': not supported')
    }
    expect(await result.getByRole('list', { name: 'Auth methods' }).innerText()).toContain('Log in')
    await screenshotBothSchemes('agents-check')
  })

  it('shows the initialize exchange of that check in the protocol inspector, pretty-printed, and exports it as a file', async () => {
    const dialog = await openAgents()
    await tab('Inspector').click()
    const grid = await visible(dialog.getByRole('grid', { name: 'Protocol messages' }))
    const rows = grid.locator('tbody tr')
    const requests = rows.filter({ hasText: 'initialize' }).filter({ hasText: 'request' })
    const responses = rows.filter({ hasText: 'initialize' }).filter({ hasText: 'response' })
    await visible(responses)
    // The scripted v1 agent answers 1 to Bosun's v2 offer, so the check starts it again offering v1 (C10b): two exchanges.
    await expect.poll(() => responses.count(), { timeout: 15_000 }).toBe(2)
    expect(await requests.count()).toBe(2)
    const request = requests.last()
    const response = responses.last()
    // Direction (for screen readers), origin, and the response's latency.
    expect(await request.innerText()).toMatch(/Sent to the agent[\s\S]*initialize[\s\S]*check/)
    expect(await response.innerText()).toMatch(/Received from the agent[\s\S]*initialize/)
    expect(await response.locator('td').nth(6).innerText()).toMatch(/^\d+(\.\d+)? (ms|s)$/)

    await request.click()
    const detail = dialog.getByRole('region', { name: 'Selected message' })
    expect(JSON.parse(await visible(detail.getByLabel(/^Message \d+ as JSON$/)).then((l) => l.innerText()))).toMatchObject({
      method: 'initialize',
      params: { protocolVersion: 1, clientInfo: { name: 'Bosun' } },
    })
    await response.click()
    const json = await visible(detail.getByLabel(/^Message \d+ as JSON$/))
    const text = await json.innerText()
    expect(text).toContain('"protocolVersion": 1')
    expect(text).toMatch(/\n {4}"agentInfo": \{\n {6}"name": "scripted-agent"/)
    expect(JSON.parse(text)).toMatchObject({ id: expect.anything(), result: { agentInfo: { version: '2.3.0' } } })
    await screenshotBothSchemes('agents-inspector')

    const download = page.waitForEvent('download')
    await dialog.getByRole('toolbar', { name: 'Inspector tools' }).getByRole('button', { name: 'Export' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^bosun-inspector-scripted-.+\.jsonl$/)
    const lines = readFileSync(await file.path(), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; method?: string; direction: string })
    expect(lines.filter((m) => m.method === 'initialize').map((m) => `${m.kind} ${m.direction}`)).toEqual(['request out', 'response in', 'request out', 'response in'])
  })

  it('an unknown v1 agent starts once: the session works, and the Agents page says what this run goes without', async () => {
    if (await agentsDialog().isVisible()) await closeAgents()
    await requestSession('Unknown v1 agent')
    await sessionReady('Unknown v1 agent')
    const dialog = await openAgents()
    await listItem('Unknown v1 agent').click()
    const note = await visible(dialog.getByText(/This run reads and writes files and runs commands by itself/))
    expect(await note.innerText()).toContain('From its next start (Restart), Bosun serves its files, terminals and forms.')
    // Remembered: the definition now offers 1.
    expect(stored('Unknown v1 agent')).toMatchObject({ protocolVersion: 1 })
    await screenshotBothSchemes('agents-limited-run')
    await dialog.getByRole('button', { name: 'Restart', exact: true }).click()
    await gone(dialog.getByText(/This run reads and writes files and runs commands by itself/))
    await expect.poll(() => listItem('Unknown v1 agent').innerText(), { timeout: 15_000 }).toMatch(/Running/)
    await closeAgents()
  })

  it('removes an agent through its editor: gone from the list and from agents.json', async () => {
    const dialog = await openAgents()
    await listItem('Claude (work)').click()
    await dialog.getByRole('button', { name: 'Edit', exact: true }).click()
    const form = await visible(editor('Edit Claude (work)'))
    await form.getByRole('button', { name: 'Remove…' }).click()
    const remove = form.getByRole('button', { name: 'Remove Claude (work) and its secrets' })
    // Said before the click: what becomes of its sessions.
    expect(await remove.getAttribute('aria-describedby')).not.toBeNull()
    await visible(form.getByText('Its sessions cannot go on once it is removed; their transcripts stay in the history.'))
    await screenshotBothSchemes('agents-remove-confirm')
    await remove.click()
    await gone(form)
    await gone(listItem('Claude (work)'))
    expect(stored('Claude (work)')).toBeUndefined()
    expect(stored('Claude')).toBeDefined()
    await closeAgents()
  })
})

describe('signing in when a new session needs it', () => {
  it('offers the agent-driven login and starts the session once it went through (v1 authenticate)', async () => {
    const form = await requestSession('Needs login')
    const dialog = await visible(signInDialog('Needs login'))
    await visible(dialog.getByText('Authentication required'))
    const methods = dialog.getByRole('list', { name: 'Sign-in methods' })
    await visible(methods.getByRole('heading', { name: 'Log in' }))
    await visible(methods.getByRole('heading', { name: 'Terminal login' }))
    // The form waits behind the dialog.
    await visible(form.getByRole('button', { name: 'Starting…' }))
    await screenshotBothSchemes('agents-sign-in')

    await methods.getByRole('button', { name: 'Sign in', exact: true }).click()
    await gone(dialog)
    await gone(form)
    await sessionReady('Needs login')
    await visible(page.getByRole('main', { name: /^Session / }))
  })

  it('Escape gives up and the form says why; trying again with the v2 agent logs in through auth/login', async () => {
    const form = await requestSession('Needs login v2')
    const dialog = await visible(signInDialog('Needs login v2'))
    await visible(dialog.getByRole('list', { name: 'Sign-in methods' }).getByRole('heading', { name: 'Log in' }))
    await page.keyboard.press('Escape')
    await gone(dialog)
    expect(await form.getByRole('alert').innerText()).toContain('Authentication required')

    await form.getByRole('button', { name: 'Start session' }).click()
    const again = await visible(signInDialog('Needs login v2'))
    await again.getByRole('button', { name: 'Sign in', exact: true }).click()
    await gone(again)
    await gone(form)
    await sessionReady('Needs login v2')
  })

  it('codex-style: the failed API-key login names its variables; the key saved under one logs in and starts the session', async () => {
    const form = await requestSession('Codex-style')
    const dialog = await visible(signInDialog('Codex-style'))
    const methods = dialog.getByRole('list', { name: 'Sign-in methods' })
    await methods.getByRole('button', { name: 'Sign in with API Key' }).click()
    await visible(methods.getByRole('alert').filter({ hasText: 'OTHER_KEY or ACME_API_KEY is not set' }))
    const keyForm = await visible(methods.getByRole('form', { name: 'API Key: a key for Codex-style' }))
    // The agent also named NODE_OPTIONS: not a key, not offered.
    expect(await keyForm.getByRole('combobox', { name: 'Variable' }).locator('option').allTextContents()).toEqual(['OTHER_KEY', 'ACME_API_KEY'])
    await keyForm.getByRole('combobox', { name: 'Variable' }).selectOption('ACME_API_KEY')
    await screenshotBothSchemes('agents-sign-in-named-key')

    const key = 'acme-codex-style-canary-5521'
    await keyForm.getByLabel('ACME_API_KEY', { exact: true }).fill(key)
    await keyForm.getByRole('button', { name: 'Save key and sign in' }).click()
    await gone(dialog)
    await gone(form)
    await sessionReady('Codex-style')
    expect(stored('Codex-style')!.secretEnv).toEqual(['ACME_API_KEY'])
    expect(readFileSync(join(app.home.home, 'agents.json'), 'utf8')).not.toContain(key)
  })

  it('the Sign in tab offers the agent’s own key that has no value yet, above its methods', async () => {
    const dialog = await openAgents()
    await listItem('Gemini-style').click()
    await tab('Sign in').click()
    const keys = await visible(dialog.getByRole('region', { name: 'Keys' }))
    await visible(keys.getByLabel('ACME_API_KEY', { exact: true }))
    await visible(keys.getByRole('button', { name: 'Save and restart' }))
    await visible(dialog.getByRole('list', { name: 'Sign-in methods' }).getByRole('heading', { name: 'API Key' }))
    await screenshotBothSchemes('agents-login-missing-key')
    await closeAgents()
  })

  it('gemini-style: the agent’s own key without a value is offered above the methods; saving it starts the session', async () => {
    const form = await requestSession('Gemini-style')
    const dialog = await visible(signInDialog('Gemini-style'))
    await visible(dialog.getByText('API key is missing or not configured.'))
    const keys = await visible(dialog.getByRole('region', { name: 'Keys' }))
    await screenshotBothSchemes('agents-sign-in-missing-key')
    const key = 'acme-gemini-style-canary-7730'
    await keys.getByLabel('ACME_API_KEY', { exact: true }).fill(key)
    await keys.getByRole('button', { name: 'Save key and start' }).click()
    await gone(dialog)
    await gone(form)
    await sessionReady('Gemini-style')
    expect(readFileSync(join(app.home.home, 'agents.json'), 'utf8')).not.toContain(key)
  })

  it('a method that takes its key in the login (Gemini CLI): the key pasted there logs in and starts the session; it is kept nowhere', async () => {
    const form = await requestSession('Key-in-login')
    const dialog = await visible(signInDialog('Key-in-login'))
    const methods = dialog.getByRole('list', { name: 'Sign-in methods' })
    const keyForm = await visible(methods.getByRole('form', { name: 'Gemini API key: the key' }))
    await visible(keyForm.getByText('with this sign-in, and not stored', { exact: false }))
    await screenshotBothSchemes('agents-sign-in-key-in-login')

    // A wrong key: the agent's refusal is shown under the method, the dialog stays.
    await keyForm.getByLabel('API key', { exact: true }).fill('wrong-key-0000')
    await keyForm.getByRole('button', { name: 'Sign in', exact: true }).click()
    await visible(methods.getByRole('alert').filter({ hasText: 'API key is missing or not valid.' }))

    const key = 'AIza-test-key-0123456789'
    await keyForm.getByLabel('API key', { exact: true }).fill(key)
    await keyForm.getByRole('button', { name: 'Sign in', exact: true }).click()
    await gone(dialog)
    await gone(form)
    await sessionReady('Key-in-login')
    expect(stored('Key-in-login')!.secretEnv).toEqual([])
    expect(readFileSync(join(app.home.home, 'agents.json'), 'utf8')).not.toContain(key)
    expect(await page.content()).not.toContain(key)
  })

  it('a message refused for want of a sign-in offers "Sign in…"; once signed in, Resend gets the answer', async () => {
    const form = await requestSession('Signed-out agent')
    await gone(form)
    await sessionReady('Signed-out agent')
    await messageBox(page).fill('hello')
    await messageBox(page).press('Enter')
    const note = await visible(page.getByRole('note', { name: 'Not sent' }))
    await visible(note.getByText('Authentication required'))
    await note.getByRole('button', { name: 'Sign in…' }).click()
    const dialog = await visible(signInDialog('Signed-out agent'))
    await visible(dialog.getByText('before it takes your message'))
    // Nothing to try again here: the person sends the message again.
    expect(await dialog.getByRole('button', { name: 'Try again' }).count()).toBe(0)
    // What the agent said about who is signed in (`_auth/status_update`, as claude-agent-acp sends it).
    await visible(dialog.getByRole('status', { name: 'Signed-out agent account' }).getByText('says no one is signed in'))
    await screenshotBothSchemes('agents-sign-in-for-message')
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click()
    await gone(dialog)
    // The refused text is still in the composer (a failed send keeps it), until it goes by Resend.
    expect(await messageBox(page).inputValue()).toBe('hello')
    await note.getByRole('button', { name: 'Resend' }).click()
    await visible(page.getByRole('log', { name: 'Transcript' }).getByText('Hello, signed-in person.'))
    // It went: the composer no longer offers it, and the refused bubble no longer offers to send it again.
    await expect.poll(() => messageBox(page).inputValue()).toBe('')
    expect(await note.getByRole('button').count()).toBe(0)
    await visible(note.getByText('Authentication required'))

    // The Login tab shows the account the agent now reports.
    const agents = await openAgents()
    await listItem('Signed-out agent').click()
    await tab('Sign in').click()
    const account = await visible(agents.getByRole('status', { name: 'Signed-out agent account' }))
    await visible(account.getByText('Claude Max'))
    await visible(account.getByText('ada@example.com'))
    await screenshotBothSchemes('agents-login-account')
    await expectAxeCleanInBothThemes(page, 'the Sign in tab with the account line', '[role="dialog"]')
    await closeAgents()
  })

  it('-32000 from an agent that listed no auth methods: the refusal is shown with why there is no sign-in, and no sign-in is offered (B10)', async () => {
    const form = await requestSession('No-login starter')
    const alert = await visible(form.getByRole('alert'))
    await visible(alert.getByText('No-login starter asks for a sign-in but listed no way to sign in that Bosun can use', { exact: false }))
    await visible(alert.getByText('It said: Authentication required', { exact: false }))
    expect(await signInDialog('No-login starter').count()).toBe(0)
    await screenshotBothSchemes('agents-auth-required-no-methods-new-session')
    await form.getByRole('button', { name: 'Cancel' }).click()
    await gone(form)

    await gone(await requestSession('No-login agent'))
    await sessionReady('No-login agent')
    await messageBox(page).fill('hello')
    await messageBox(page).press('Enter')
    const note = await visible(page.getByRole('note', { name: 'Not sent' }))
    await visible(note.getByText('Authentication required'))
    await visible(note.getByText('listed no way to sign in that Bosun can use', { exact: false }))
    expect(await note.getByRole('button', { name: 'Sign in…' }).count()).toBe(0)
    await visible(note.getByRole('button', { name: 'Resend' }))
    await screenshotBothSchemes('agents-auth-required-no-methods-message')
  })

  it('a key exported in the shell Bosun started from is offered by name and used only when asked', async () => {
    const key = 'shellkey-e2e-canary-9061'
    process.env.SHELLKEY_API_KEY = key
    try {
      const form = await requestSession('Shell-key agent')
      const dialog = await visible(signInDialog('Shell-key agent'))
      const keys = await visible(dialog.getByRole('region', { name: 'Keys' }))
      await visible(keys.getByText('is set in the environment Bosun was started from.'))
      // The value is never in the page.
      expect(await page.content()).not.toContain(key)
      await screenshotBothSchemes('agents-sign-in-environment-key')
      await keys.getByRole('button', { name: 'Use that value for Shell-key agent' }).click()
      await gone(dialog)
      await gone(form)
      await sessionReady('Shell-key agent')
      expect(readFileSync(join(app.home.home, 'agents.json'), 'utf8')).not.toContain(key)
      expect(await page.content()).not.toContain(key)
    } finally {
      delete process.env.SHELLKEY_API_KEY
    }
  })

  it('a login through a model gateway: the address and a header (a secret) log in and start the session; neither is kept', async () => {
    const token = 'Bearer gw-e2e-canary-5519'
    const form = await requestSession('Gateway agent')
    const dialog = await visible(signInDialog('Gateway agent'))
    const gateway = await visible(dialog.getByRole('form', { name: 'AI API Gateway: the gateway' }))
    await visible(dialog.getByText('Through your gateway, Google API'))
    await gateway.getByRole('button', { name: 'Sign in' }).click()
    await visible(gateway.getByRole('alert').filter({ hasText: 'full address' }))
    await gateway.getByLabel('Gateway address (Google API)').fill('https://gw.example.com/v1')
    await gone(gateway.getByRole('alert'))
    await gateway.getByRole('button', { name: 'Add header' }).click()
    await gateway.getByRole('textbox', { name: 'Header 1 name' }).fill('x-team-token')
    await gateway.getByLabel('Header 1 value').fill(token)
    await screenshotBothSchemes('agents-sign-in-gateway')
    await expectAxeCleanInBothThemes(page, 'the sign-in dialog with a gateway form', 'dialog[open]')
    await gateway.getByRole('button', { name: 'Sign in' }).click()
    await gone(dialog)
    await gone(form)
    await sessionReady('Gateway agent')
    expect(await page.content()).not.toContain('gw-e2e-canary-5519')
    expect(readFileSync(join(app.home.home, 'agents.json'), 'utf8')).not.toContain('gw-e2e-canary-5519')
  })

  it('OpenCode-style: a login described only by `_meta["terminal-auth"]` runs in a terminal here, showing its command; when it ends well the session starts', async () => {
    const form = await requestSession('OpenCode-style')
    const dialog = await visible(signInDialog('OpenCode-style'))
    const methods = dialog.getByRole('list', { name: 'Sign-in methods' })
    await visible(methods.getByRole('heading', { name: 'Login with env-agent' }))
    // Not a "Log in" button that would send `authenticate` (which such an agent answers with success, signing no one in).
    expect(await methods.getByRole('button', { name: /^Sign in/ }).count()).toBe(0)
    await visible(methods.getByText(`${basename(process.execPath)} ${ENV_AGENT} --login --state ${OPENCODE_STATE}`, { exact: true }))
    await screenshotBothSchemes('agents-sign-in-terminal-auth-meta')
    await expectAxeCleanInBothThemes(page, 'the sign-in dialog with a terminal login and its command', 'dialog[open]')

    await methods.getByRole('button', { name: 'Open terminal' }).click()
    const terminal = await visible(dialog.getByRole('region', { name: 'Terminal: Login with env-agent' }))
    await visible(terminal.getByText('Paste your token:'))
    await terminal.getByRole('textbox', { name: 'Type a line' }).fill('ok')
    await terminal.getByRole('textbox', { name: 'Type a line' }).press('Enter')
    // Bosun restarts the agent and tries again by itself: this time the session starts.
    await gone(dialog)
    await gone(form)
    await sessionReady('OpenCode-style')
  })

  it('a terminal login that ends well is followed by another try; an env-var key goes to the keychain, the agent restarts with it and the session starts', async () => {
    const form = await requestSession('Env agent')
    const dialog = await visible(signInDialog('Env agent'))
    const methods = dialog.getByRole('list', { name: 'Sign-in methods' })

    // The terminal login runs the agent's own command with --login; this one just wants "ok".
    await methods.getByRole('button', { name: 'Open terminal' }).click()
    const terminal = await visible(dialog.getByRole('region', { name: 'Terminal: Terminal login' }))
    await visible(terminal.getByText('Paste your token:'))
    await terminal.getByRole('textbox', { name: 'Type a line' }).fill('ok')
    await terminal.getByRole('textbox', { name: 'Type a line' }).press('Enter')
    await visible(terminal.getByRole('status').filter({ hasText: 'Finished' }))
    // Bosun tried again by itself; this agent still wants its key.
    await visible(dialog.getByRole('alert').filter({ hasText: 'Env agent still asks you to sign in: Authentication required' }))
    await screenshotBothSchemes('agents-sign-in-terminal')
    await terminal.getByRole('button', { name: 'Close terminal' }).click()
    await gone(terminal)
    await visible(methods.getByText('Finished.', { exact: true }))

    const key = 'acme-e2e-canary-4417'
    const field = methods.getByLabel('ACME_KEY')
    await field.fill(key)
    await methods.getByRole('button', { name: 'Save and restart' }).click()
    await gone(dialog)
    await gone(form)
    await sessionReady('Env agent')

    // Stored as a secret (in the keychain), never in the settings file.
    const env = stored('Env agent')!
    expect(env.secretEnv).toEqual(['ACME_KEY'])
    expect(readFileSync(join(app.home.home, 'agents.json'), 'utf8')).not.toContain(key)
    const dialogAgents = await openAgents()
    await listItem('Env agent').click()
    await dialogAgents.getByRole('button', { name: 'Edit', exact: true }).click()
    await visible(editor('Edit Env agent').getByLabel('ACME_KEY is set'))
    await closeAgents()
  })
})

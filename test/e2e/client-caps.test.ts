/**
 * What agents can ask of Bosun, in Chromium against the browser host: a command the agent runs through
 * `terminal/*` shows live on its tool card in a terminal emulator, with its exit status; an image pasted
 * and an `@` mention picked by keyboard reach the agent (screenshots terminal-card-*, composer-*).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, gone, messageBox, sendPrompt, startSession, terminalText, transcript, UI_TIMEOUT, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`shows a live terminal on the tool card (${colorScheme})`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-terminal' }, { colorScheme, viewport: { width: 1280, height: 860 } })
    await sendPrompt(page, 'run')
    await visible(agentSays(page, AGENT).getByText('All tests pass.'))
    await waitIdle(page)
    const terminal = transcript(page).getByRole('region', { name: /^Terminal term-/ })
    await visible(terminal.getByRole('status').getByText('exit 0'))
    await expect.poll(() => terminalText(terminal), { timeout: UI_TIMEOUT }).toContain('PASS 60 tests')
    // The escape sequence was rendered as colour, not shown as text.
    expect(await terminalText(terminal)).not.toContain('[32m')
    expect(await terminalText(terminal)).toContain('line 60 of the test run')
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await terminal.scrollIntoViewIfNeeded()
    await screenshot(page, `terminal-card-${colorScheme}`)
  })
}

it('kills one terminal from its card: that command only, and the agent gets its exit status', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-terminal' }, { viewport: { width: 1280, height: 860 } })
  await sendPrompt(page, 'kill-one')
  const serve = transcript(page).getByRole('article', { name: 'Run: Serve the docs' })
  const watch = transcript(page).getByRole('article', { name: 'Run: Watch the files' })
  await visible(watch.getByRole('button', { name: 'Kill sleep 301' }))
  await (await visible(serve.getByRole('button', { name: 'Kill sleep 300' }))).click()
  await visible(serve.getByRole('status').getByText('killed · signal SIGTERM'))
  await visible(agentSays(page, AGENT).getByText('The docs server stopped.'))
  expect(await transcript(page).textContent()).toContain('client response (terminal/wait_for_exit): {"exitCode":null,"signal":"SIGTERM"}')
  // The other command runs on, its Kill still offered.
  await visible(watch.getByRole('status').getByText('running'))
  await visible(watch.getByRole('button', { name: 'Kill sleep 301' }))
  await serve.scrollIntoViewIfNeeded()
  await screenshot(page, 'terminal-killed')

  // The turn is over and the watcher still runs: it is listed above the composer as background work, with its Kill.
  await waitIdle(page)
  const strip = await visible(page.getByRole('region', { name: 'Background work' }))
  await visible(strip.getByRole('status').getByText('1 task still running in the background'))
  await visible(strip.getByText('sleep 301', { exact: true }))
  await screenshot(page, 'terminal-left-running')
  await (await visible(strip.getByRole('button', { name: 'Kill sleep 301' }))).click()
  await visible(watch.getByRole('status').getByText('killed · signal SIGTERM'))
  await gone(page.getByRole('region', { name: 'Background work' }))
})

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

for (const colorScheme of ['light', 'dark'] as const) {
  it(`pastes an image and picks an @ mention by keyboard, and both reach the agent (${colorScheme})`, async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-composer' }], { colorScheme, viewport: { width: 1280, height: 860 } })
    const { page } = app
    mkdirSync(join(app.home.workspace, 'src'))
    writeFileSync(join(app.home.workspace, 'src', 'checkout.ts'), 'export const total = 42\n')
    writeFileSync(join(app.home.workspace, 'README.md'), '# shop\n')
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
    await visible(page.getByRole('button', { name: 'Attach image' }))
    // A dropped file that is not an image is refused in words; left to the browser, it would replace Bosun's page.
    const dropTaken = await page.getByRole('form', { name: 'Message composer' }).evaluate((form) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File(['hello\n'], 'notes.txt', { type: 'text/plain' }))
      form.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }))
      const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true })
      form.dispatchEvent(drop)
      return drop.defaultPrevented
    })
    expect(dropTaken).toBe(true)
    await visible(page.getByRole('alert').getByText(/notes\.txt: only images can be attached/))
    // Dropped anywhere else (the sidebar here), a file is refused by the window: no drop cursor, no page swap.
    const elsewhere = await page.getByRole('navigation').first().evaluate((nav) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File(['hello\n'], 'notes.txt', { type: 'text/plain' }))
      const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true })
      nav.dispatchEvent(over)
      const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true })
      nav.dispatchEvent(drop)
      return { over: over.defaultPrevented, effect: transfer.dropEffect, drop: drop.defaultPrevented }
    })
    expect(elsewhere).toEqual({ over: true, effect: 'none', drop: true })
    const box = messageBox(page)
    await box.click()
    // Paste an image from the clipboard (a synthetic paste event carrying a PNG file).
    await box.evaluate((el, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }))
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
    }, PNG)
    const chips = page.getByRole('list', { name: 'Attachments' })
    await visible(chips.getByText('screenshot.png'))
    // `@chk` opens the file picker; arrows and Enter pick without the mouse.
    await box.pressSequentially('Look at @chk')
    const files = await visible(page.getByRole('listbox', { name: 'Files' }))
    await visible(files.getByRole('option', { name: /checkout\.ts/ }))
    await box.press('Enter')
    await visible(chips.getByText('src/checkout.ts'))
    expect(await box.inputValue()).toBe('Look at @src/checkout.ts ')
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await screenshot(page, `composer-attachments-${colorScheme}`)
    await box.press('Enter')
    const reply = await visible(agentSays(page, AGENT).getByText(/prompt received:/))
    const text = await reply.innerText()
    const blocks = JSON.parse(text.slice(text.indexOf('prompt received: ') + 'prompt received: '.length)) as Record<string, unknown>[]
    expect(blocks).toEqual([
      { type: 'text', text: 'Look at @src/checkout.ts' },
      { type: 'image', mimeType: 'image/png', data: PNG.length },
      { type: 'resource', resource: expect.objectContaining({ text: 'export const total = 42\n', uri: expect.stringMatching(/^file:\/\/.*\/src\/checkout\.ts$/) }) },
    ])
    await waitIdle(page)
    // Chips are cleared after sending; the transcript shows what was sent.
    await gone(chips)
    await visible(transcript(page).getByRole('img', { name: /Image/ }).first())
    await screenshot(page, `composer-sent-${colorScheme}`)
  })
}

for (const colorScheme of ['light', 'dark'] as const) {
  it(`adds an MCP server in Settings and checks it lists its tools (${colorScheme})`, async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }], { colorScheme, viewport: { width: 1280, height: 900 } })
    const { page } = app
    await (await visible(page.getByRole('button', { name: 'Settings', exact: true }))).click()
    const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
    const section = settings.getByRole('region', { name: 'MCP servers' })
    await visible(section.getByText('No MCP servers yet.'))
    const form = section.getByRole('form', { name: 'Add an MCP server' })
    await form.getByLabel('Name', { exact: true }).fill('Tiny tools')
    await form.getByLabel('Command', { exact: true }).fill(process.execPath)
    const tsx = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
    await form.getByLabel('Arguments', { exact: true }).fill(`--import ${tsx} ${join(repoRoot, 'test', 'fixtures', 'mcp', 'tiny-server.ts')}`)
    await form.getByRole('button', { name: 'Add server' }).click()
    const item = await visible(section.getByRole('listitem', { name: 'Tiny tools' }))
    await item.getByRole('button', { name: 'Check' }).click()
    await visible(item.getByRole('status').getByText('2 tools: add, echo_env'), 30_000)
    // Saved in Bosun's home, for the next sessions.
    expect(JSON.parse(readFileSync(join(app.home.home, 'mcp-servers.json'), 'utf8')).servers[0]).toMatchObject({ id: 'tiny-tools', transport: 'stdio' })
    await item.scrollIntoViewIfNeeded()
    await screenshot(page, `settings-mcp-${colorScheme}`)
  })
}

/**
 * Tool-call locations and added folders, in Chromium against the browser host: a tool card's file locations
 * offer Open and Copy path; Copy puts `path:line` on the clipboard (or, where the Clipboard API is refused,
 * through the older copy command, or shows the text to copy by hand); Open says the browser cannot open a
 * local editor (main answers `unsupported`). The New session form adds and removes folders, main refuses one
 * that is not a folder, and the session header shows them; the agent reads a file in one.
 * Screenshots tool-locations-*, new-session-folders-*, session-folders-*.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { axeViolations } from './support/axe'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import { agentSays, gone, messageBox, sendPrompt, transcript, until, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const extraDirs: string[] = []
afterEach(async () => {
  for (const dir of extraDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const launch = launchPerTest()

async function openForm(page: E2eApp['page'], cwd: string) {
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await (await visible(nav.getByRole('button', { name: 'New session', exact: true }))).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  await form.getByRole('combobox', { name: 'Agent' }).selectOption({ label: AGENT })
  await form.getByRole('textbox', { name: 'Working folder' }).fill(cwd)
  return form
}

for (const colorScheme of ['light', 'dark'] as const) {
  it(`a tool card's locations: Copy path puts path:line on the clipboard, Open says the browser cannot (${colorScheme})`, async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-locations' }], {
      colorScheme,
      viewport: { width: 1280, height: 800 },
      // Dark: the Clipboard API refuses (as in the Electron app, which denies the permission): the older copy command is used.
      ...(colorScheme === 'dark'
        ? { beforeLoad: (page) => page.addInitScript(() => (navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError')))) }
        : {}),
    })
    const { page, context, host } = app
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin })
    const { workspace } = app.home
    const form = await openForm(page, workspace)
    await form.getByRole('button', { name: 'Start session' }).click()
    await gone(form)
    await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
    await sendPrompt(page, 'edit')
    await visible(agentSays(page, AGENT).getByText('Updated the checkout total.'))
    await waitIdle(page)

    const card = transcript(page).getByRole('article', { name: /Edit checkout total/ })
    const locations = card.getByRole('list', { name: 'Locations' })
    const checkout = `${workspace}/src/checkout.ts:12`
    await visible(locations.getByText(checkout))
    await visible(locations.getByRole('button', { name: `Open ${workspace}/README.md` }))

    await locations.getByRole('button', { name: `Copy path ${checkout}` }).click()
    await visible(card.getByRole('status').getByText(`Copied ${checkout}`))
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(checkout)
    // Without a line, the path alone.
    await locations.getByRole('button', { name: `Copy path ${workspace}/README.md` }).click()
    await visible(card.getByRole('status').getByText(`Copied ${workspace}/README.md`))
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${workspace}/README.md`)

    // The browser host cannot open a local editor: main says so, and the card says what to do instead.
    await locations.getByRole('button', { name: `Open ${checkout}` }).click()
    await visible(card.getByRole('status').getByText('This browser cannot open files in your editor. Use Copy path instead.'))
    await card.scrollIntoViewIfNeeded()
    await locations.getByRole('button', { name: `Copy path ${checkout}` }).hover()
    await screenshot(page, `tool-locations-${colorScheme}`)
    expect(await axeViolations(page, '.tool-card')).toEqual([])
  })
}

it('where no way of copying works, the card shows the path selected to copy by hand', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-locations' }], {
    beforeLoad: (page) =>
      page.addInitScript(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'))
        document.execCommand = () => false
      }),
  })
  const { page } = app
  const form = await openForm(page, app.home.workspace)
  await form.getByRole('button', { name: 'Start session' }).click()
  await gone(form)
  await sendPrompt(page, 'edit')
  await waitIdle(page)
  const card = transcript(page).getByRole('article', { name: /Edit checkout total/ })
  const checkout = `${app.home.workspace}/src/checkout.ts:12`
  await card.getByRole('button', { name: `Copy path ${checkout}` }).click()
  const field = await visible(card.getByRole('textbox', { name: /select and copy/ }))
  expect(await field.inputValue()).toBe(checkout)
  await until<HTMLInputElement>(field, (el) => el.selectionStart === 0 && el.selectionEnd === el.value.length)
})

for (const colorScheme of ['light', 'dark'] as const) {
  it(`the New session form adds and removes folders; main refuses one that is not a folder; the header shows them (${colorScheme})`, async () => {
    const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-locations' }], { colorScheme, viewport: { width: 1280, height: 800 } })
    const { page } = app
    const { workspace } = app.home
    const extra = `${workspace}-extra`
    extraDirs.push(extra)
    mkdirSync(extra)
    writeFileSync(join(extra, 'notes.txt'), 'shared notes\n')

    const form = await openForm(page, workspace)
    await visible(form.getByText('The agent may also read and write files in folders you add.'))
    await form.getByRole('button', { name: 'Add folder' }).click()
    // The new row has the focus: typing goes there.
    await until<HTMLInputElement>(form.getByRole('textbox', { name: 'Added folder 1' }), (el) => el === document.activeElement)
    await page.keyboard.type(`${workspace}/missing`)
    await form.getByRole('button', { name: 'Add folder' }).click()
    await form.getByRole('textbox', { name: 'Added folder 2' }).fill(extra)
    await form.getByRole('button', { name: 'Add folder' }).click()
    await form.getByRole('textbox', { name: 'Added folder 3' }).fill('relative/path')
    await form.getByRole('button', { name: 'Start session' }).click()
    await visible(form.getByRole('alert').getByText('Added folders must be absolute paths: relative/path'))
    await form.getByRole('button', { name: 'Remove folder relative/path' }).click()
    await form.getByRole('button', { name: 'Start session' }).click()
    // Main checks each folder before the agent starts.
    await visible(form.getByRole('alert').getByText(`${workspace}/missing does not exist.`))
    // Its row is marked; the good one is not.
    await until<HTMLInputElement>(form.getByRole('textbox', { name: 'Added folder 1' }), (el) => el.getAttribute('aria-invalid') === 'true')
    expect(await form.getByRole('textbox', { name: 'Added folder 2' }).getAttribute('aria-invalid')).toBeNull()
    await screenshot(page, `new-session-folders-${colorScheme}`)
    expect(await axeViolations(page, '.new-session-form')).toEqual([])
    await form.getByRole('button', { name: `Remove folder ${workspace}/missing` }).click()
    expect(await form.getByRole('textbox', { name: 'Added folder 1' }).inputValue()).toBe(extra)
    await form.getByRole('button', { name: 'Start session' }).click()
    await gone(form)

    // The folders by name (a narrow window still shows them), their full paths in the tooltip.
    await visible(page.locator('.session-subtitle').getByText(`${basename(workspace)} + ${basename(extra)} · ${AGENT}`, { exact: true }))
    expect(await page.locator('.session-subtitle').getAttribute('title')).toBe(`${workspace} + ${extra} · ${AGENT}`)
    await sendPrompt(page, 'read-extra')
    await visible(agentSays(page, AGENT).getByText('Read the notes.'))
    await visible(agentSays(page, AGENT).getByText(/shared notes/))
    await waitIdle(page)
    await screenshot(page, `session-folders-${colorScheme}`)
  })
}

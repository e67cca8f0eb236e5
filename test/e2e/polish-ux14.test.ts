/**
 * UX pass 14, in the browser host at 900 × 700 and 1440 × 900, light and dark. Screenshots: test/e2e/screenshots/ux14-*.png.
 */
import { join } from 'node:path'
import { mkdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { shootSizes as shootAllSizes } from './support/shoot-all'
import { cutAcross, focusShown } from './support/screen-checks'
import { gone, sendButton, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()

/** {@link shootAllSizes} named `ux14-<name>-<scheme>-<width>`. */
const shootSizes = (page: Page, name: string, check?: () => Promise<void>) => shootAllSizes(page, `ux14-${name}`, check)

const box = async (locator: Locator) => (await locator.boundingBox())!

it('a permission request keeps Dismiss on the row of its first options at 900 px (it wrapped to a line of its own)', async () => {
  // claude-agent-acp's words for a command (0.101).
  const scenario = scenarioFile('claude-bash', {
    prompts: {
      default: [
        { type: 'tool_call', id: 'b1', title: 'npm test -- --run billing', kind: 'execute', status: 'pending', rawInput: { command: 'npm test -- --run billing' } },
        {
          type: 'request_permission',
          params: {
            toolCall: { toolCallId: 'b1' },
            options: [
              { optionId: 'allow', name: 'Yes', kind: 'allow_once' },
              { optionId: 'allow_always', name: "Yes, and don't ask again for npm test commands in /home/ada/projects/billing", kind: 'allow_always' },
              { optionId: 'reject', name: 'No', kind: 'reject_once' },
            ],
          },
        },
        { type: 'text', text: 'Done.' },
      ],
    },
  })
  const agent = 'Claude'
  const app = await launch([{ id: 'c', name: agent, scenario }], { viewport: { width: 900, height: 700 } })
  const { page } = app
  const cwd = join(app.home.workspace, 'billing')
  mkdirSync(cwd)
  await startSession(page, { agentName: agent, cwd })
  await sendPrompt(page, 'work')
  const request = await visible(transcript(page).getByRole('alertdialog'))
  await shootSizes(page, 'permission', async () => {
    const options = request.getByRole('group', { name: 'Options' })
    const dismiss = options.getByRole('button', { name: 'Dismiss' })
    const first = options.getByRole('button').first()
    expect(Math.abs((await box(dismiss)).y - (await box(first)).y)).toBeLessThanOrEqual(4)
    // The "always" option's mark (✓✓) is one line beside its two lines of words.
    const mark = options.locator('.perm-option-icon').nth(1)
    expect(await mark.evaluate((el) => el.getBoundingClientRect().height <= parseFloat(getComputedStyle(el).lineHeight) + 1)).toBe(true)
  })
})

it('walk: a turn with tool calls, a diff, a terminal, a plan and a request, then the history, at each size and theme', async () => {
  const app = await launch(
    [
      { id: 'cards', name: 'Cards agent', scenario: 'e2e-cards' },
      { id: 'term', name: 'Terminal agent', scenario: 'e2e-terminal' },
      { id: 'claude', name: 'Claude Code', scenario: 'e2e-claude-like' },
    ],
    { viewport: { width: 1440, height: 900 } },
  )
  const { page } = app
  const cwd = join(app.home.workspace, 'billing')
  mkdirSync(cwd)
  await startSession(page, { agentName: 'Cards agent', cwd })
  // Each prompt, whether the agent asks first (answered with its first option), and how its turn ends.
  const turns = [
    ['bash', true, 'done bash'],
    ['edit', false, 'done edit'],
    ['failed-fence', false, 'done failed fence'],
    ['codex-reject', true, 'The agent cancelled the turn.'],
  ] as const
  for (const [prompt, asks, end] of turns) {
    await sendPrompt(page, prompt)
    if (asks) await (await visible(transcript(page).getByRole('alertdialog').getByRole('group', { name: 'Options' }).getByRole('button').first())).click()
    await visible(transcript(page).getByText(end))
    await waitIdle(page)
  }
  await shootSizes(page, 'cards', async () => expect(await cutAcross(page)).toEqual([]))

  await startSession(page, { agentName: 'Terminal agent', cwd })
  await sendPrompt(page, 'run')
  await waitIdle(page)
  await shootSizes(page, 'terminal', async () => expect(await cutAcross(page)).toEqual([]))

  await startSession(page, { agentName: 'Claude Code', cwd })
  await sendPrompt(page, 'work')
  await visible(transcript(page).getByRole('alertdialog'))
  await shootSizes(page, 'claude-waiting', async () => expect(await cutAcross(page)).toEqual([]))
})

it('walk: a form, a link question, Agents, the add-agent form, an agent’s Logs and inspector, and Settings, by keyboard', async () => {
  const app = await launch([{ id: 'eli', name: 'Forms agent', scenario: 'e2e-elicitation' }], { viewport: { width: 1440, height: 900 } })
  const { page } = app
  const cwd = join(app.home.workspace, 'billing')
  mkdirSync(cwd)
  await startSession(page, { agentName: 'Forms agent', cwd })
  await sendPrompt(page, 'small-form')
  const form = await visible(transcript(page).getByRole('region', { name: 'Branch name', exact: true }))
  await shootSizes(page, 'form', async () => {
    expect(await cutAcross(page)).toEqual([])
    // The form took the focus and the view stopped following, with nothing below it: no "Jump to latest" pointing nowhere.
    await expect.poll(() => page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0)
  })
  await form.getByRole('button', { name: 'Decline' }).click()
  await visible(sendButton(page))
  await sendPrompt(page, 'url-docs')
  await visible(transcript(page).getByRole('region', { name: 'Read the setup guide', exact: true }))
  await shootSizes(page, 'link-question', async () => {
    expect(await cutAcross(page)).toEqual([])
    await expect.poll(() => page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0)
  })

  // Agents, from the keyboard.
  await page.setViewportSize({ width: 900, height: 700 })
  await page.getByRole('button', { name: 'Agents', exact: true }).focus()
  await page.keyboard.press('Enter')
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await shootSizes(page, 'agents', async () => {
    expect(await cutAcross(page)).toEqual([])
    // The Runtime and Definition cards' values start as far into each card (each sized its labels' column to its own labels).
    const starts = () =>
      dialog
        .locator('.agents-facts')
        .evaluateAll((lists) => lists.map((dl) => Math.round(dl.querySelector('dd')!.getBoundingClientRect().left - dl.getBoundingClientRect().left)))
    await expect.poll(async () => (await starts()).length).toBe(2)
    expect(new Set(await starts()).size).toBe(1)
  })
  for (const tab of ['Logs', 'Inspector']) {
    await dialog.getByRole('tab', { name: tab, exact: true }).focus()
    await page.keyboard.press('Enter')
    await visible(dialog.getByRole('tab', { name: tab, selected: true }))
    await shootSizes(page, `agents-${tab.toLowerCase()}`, async () => expect(await cutAcross(page)).toEqual([]))
  }
  await dialog.getByRole('button', { name: 'Add agent' }).focus()
  await page.keyboard.press('Enter')
  await visible(dialog.getByRole('heading', { name: 'Add an agent' }))
  await shootSizes(page, 'add-agent-pane', async () => expect(await cutAcross(page)).toEqual([]))
  await dialog.getByRole('list', { name: 'Presets' }).getByRole('button', { name: /^Claude/ }).focus()
  await page.keyboard.press('Enter')
  await visible(dialog.getByRole('form', { name: 'Add agent' }))
  await shootSizes(page, 'add-agent', async () => {
    expect(await cutAcross(page)).toEqual([])
    expect(await focusShown(page)).toBe('shown')
  })
  for (let i = 0; i < 4 && (await dialog.count()); i++) await page.keyboard.press('Escape')
  await gone(dialog)

  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  await shootSizes(page, 'settings', async () => expect(await cutAcross(page)).toEqual([]))
  await page.keyboard.press('Escape')
  await gone(settings)
})

it('a failed call that says nothing of why says so in words, with where to look next', async () => {
  const scenario = scenarioFile('failed-bare', {
    prompts: {
      default: [
        { type: 'tool_call', id: 'f1', title: 'Read /w/notes/missing.md', kind: 'read', status: 'failed' },
        { type: 'text', text: 'It did not work.' },
      ],
    },
  })
  const { page } = await launch.session({ id: 'bare', name: 'Bare agent', scenario }, { viewport: { width: 900, height: 700 } })
  await sendPrompt(page, 'read it')
  await waitIdle(page)
  const card = transcript(page).getByRole('article', { name: /missing\.md/ })
  await visible(card.getByText('The agent reported that this read failed and gave no reason. Ask it in your next message what went wrong; its log (Agents, then Logs) may say more.'))
  await shootSizes(page, 'failed-no-reason', async () => expect(await cutAcross(page)).toEqual([]))
})

it('a running agent’s page names the saved changes a restart applies', async () => {
  const { page } = await launch.session({ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-permissions' }, { viewport: { width: 900, height: 700 } })
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await visible(dialog.getByText('Running', { exact: true }).first())
  await dialog.getByRole('button', { name: 'Edit', exact: true }).click()
  const form = await visible(dialog.getByRole('form', { name: 'Edit Scripted agent' }))
  const args = form.getByRole('textbox', { name: 'Arguments', exact: true })
  await args.fill(`${await args.inputValue()} --verbose`)
  await form.getByRole('button', { name: 'Add variable' }).click()
  await form.getByLabel('Variable 1 name', { exact: true }).fill('LOG_LEVEL')
  await form.getByLabel('Variable 1 value', { exact: true }).fill('debug')
  await form.getByRole('button', { name: 'Save', exact: true }).click()
  await gone(form)
  await visible(
    dialog.getByText('Runs the definition it started with: Scripted agent uses the new arguments and 1 changed environment variable from its next start (Restart ends a turn in progress).'),
  )
  await shootSizes(page, 'definition-changed', async () => expect(await cutAcross(page)).toEqual([]))
})

it('walk by keyboard: F6 through the sidebar, the transcript and the message box, and a history row’s actions, each ringed and in view', async () => {
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }], { viewport: { width: 900, height: 700 } })
  const { page } = app
  for (const prompt of ['fix', 'again']) {
    await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
    await sendPrompt(page, prompt)
    await waitIdle(page)
  }
  const where = () => page.evaluate(() => document.activeElement?.closest('nav, [role="log"], form, main')?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? '')
  const seen: string[] = []
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('F6')
    await expect.poll(() => focusShown(page)).toBe('shown')
    seen.push(await where())
    await shootSizes(page, `keyboard-f6-${i + 1}`, async () => expect(await focusShown(page)).toBe('shown'))
  }
  expect(new Set(seen).size).toBe(3)
  // A history row's actions, from the keyboard.
  const history = page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('region', { name: 'History' })
  await history.getByRole('button', { name: 'Actions for fix' }).focus()
  await page.keyboard.press('Enter')
  await visible(history.getByRole('group', { name: 'Actions for fix' }))
  await page.keyboard.press('Tab')
  await shootSizes(page, 'history-actions', async () => {
    expect(await focusShown(page)).toBe('shown')
    expect(await cutAcross(page)).toEqual([])
  })
})

it('Settings: an MCP server’s long argument list wraps across the form and shows whole', async () => {
  const { page } = await launch([{ id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' }], { viewport: { width: 900, height: 700 } })
  // The window's keys listen once it has loaded: a key pressed before that is lost.
  await visible(page.getByRole('button', { name: 'Settings', exact: true }))
  await page.keyboard.press('Control+Comma')
  const settings = await visible(page.getByRole('dialog', { name: 'Settings' }))
  const form = settings.getByRole('form', { name: /Add/ }).first()
  const args = form.getByRole('textbox', { name: 'Arguments', exact: true })
  const oneLine = (await box(args)).height
  await args.fill('-y @modelcontextprotocol/server-filesystem /home/ada/projects/bosun /home/ada/projects/billing "/home/ada/My Documents" --read-only --max-depth 8')
  await args.scrollIntoViewIfNeeded()
  // As wide as the form (it was a third of it), taller than one line, nothing out of sight.
  expect((await box(args)).width).toBeGreaterThan((await box(form.getByRole('textbox', { name: 'Name', exact: true }))).width * 2)
  expect((await box(args)).height).toBeGreaterThan(oneLine * 1.5)
  expect(await args.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1)).toBe(true)
  await shootSizes(page, 'settings-mcp-arguments', async () => expect(await cutAcross(page)).toEqual([]))
})

it('walk: the new-session form and the Waiting for you inbox, by keyboard', async () => {
  const app = await launch(
    [
      { id: 'claude', name: 'Claude Code', scenario: 'e2e-claude-like' },
      { id: 'scripted', name: 'Scripted agent', scenario: 'e2e-session' },
    ],
    { viewport: { width: 900, height: 700 } },
  )
  const { page } = app
  await visible(page.getByRole('button', { name: 'Settings', exact: true }))
  await page.keyboard.press('Control+Shift+O')
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  await shootSizes(page, 'new-session', async () => {
    expect(await cutAcross(page)).toEqual([])
    expect(await focusShown(page)).toBe('shown')
  })
  await form.getByRole('textbox', { name: 'Working folder' }).fill(app.home.workspace)
  await form.getByRole('textbox', { name: 'Working folder' }).press('Enter')
  await gone(form)
  await sendPrompt(page, 'work')
  await visible(transcript(page).getByRole('alertdialog'))
  const inbox = page.getByRole('button', { name: /^Waiting for you, 1$/ })
  await inbox.focus()
  await page.keyboard.press('Enter')
  const panel = await visible(page.getByRole('dialog', { name: 'Waiting for you' }))
  // The panel takes the keyboard; Tab reaches its first item, ringed.
  await expect.poll(() => panel.evaluate((el) => el === document.activeElement)).toBe(true)
  await page.keyboard.press('Tab')
  await shootSizes(page, 'inbox', async () => {
    expect(await cutAcross(page)).toEqual([])
    expect(await focusShown(page)).toBe('shown')
  })
})

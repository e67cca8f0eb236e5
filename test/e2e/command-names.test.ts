/**
 * Slash commands whose names, descriptions or hints carry bidi controls or control characters (an agent's, hostile or
 * broken): the composer's menu shows them as visible markers, so a right-to-left override cannot reorder the menu
 * ("/weiver" drawn for a command the agent runs as something else) and a control character is not drawn as nothing.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { messageBox, sendPrompt, startSession, visible, waitIdle } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()
/** The hidden characters the agent sends below. */
const SENT_HIDDEN = ['\u202E', '\u2066', String.fromCharCode(7)]

it('shows the controls in slash command names as markers, in the order they were sent', async () => {
  const scenario = writeScenario('command-names', {
    prompts: {
      default: [
        {
          type: 'commands',
          commands: [
            { name: 'safe\u202Eetirw', description: 'Looks like /safewrite\u2066 drawn backwards', hint: 'path\u0007' },
            { name: 'bell\u0007', description: 'A control character' },
          ],
        },
        { type: 'text', text: 'Commands sent.' },
      ],
    },
  })
  const app = await launch([{ id: 'scripted', name: 'Scripted agent', scenario }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await waitIdle(page)
  await messageBox(page).focus()
  await page.keyboard.type('/')
  const menu = await visible(page.getByRole('listbox', { name: 'Commands' }))
  const options = menu.getByRole('option')
  expect(await options.count()).toBe(2)
  // Nothing hidden is drawn as text: each control is a marker, named for screen readers.
  for (const text of await options.allInnerTexts()) for (const hidden of SENT_HIDDEN) expect(text).not.toContain(hidden)
  const first = options.first()
  expect(await first.locator('.command-name .perm-ctrl').count()).toBe(1)
  expect(await first.locator('.command-description .perm-ctrl').count()).toBe(1)
  expect(await first.locator('.command-hint .perm-ctrl').count()).toBe(1)
  // "/safe" is drawn first, then the marker, then "etirw" as sent: nothing reversed.
  const name = first.locator('.command-name')
  const x = async (text: string) => (await name.getByText(text, { exact: true }).boundingBox())!.x
  expect(await x('/safe')).toBeLessThan(await x('etirw'))
  expect(await options.nth(1).locator('.command-name .perm-ctrl').count()).toBe(1)
  await screenshot(page, 'command-names')
})

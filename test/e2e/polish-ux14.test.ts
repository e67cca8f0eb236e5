/**
 * UX pass 14, in the browser host at 900 × 700 and 1440 × 900, light and dark. Screenshots: test/e2e/screenshots/ux14-*.png.
 */
import { join } from 'node:path'
import { mkdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import type { Locator, Page } from 'playwright'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { sendPrompt, startSession, transcript, visible } from './support/session-ui'

const launch = launchPerTest()
const scenarioFile = scenarioFiles()

/** Screenshots at 900 × 700 and 1440 × 900, light and dark, named `ux14-<name>-<scheme>-<width>`; `check` runs at each size. */
async function shootSizes(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  for (const viewport of [{ width: 900, height: 700 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(viewport)
    await check?.()
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await screenshot(page, `ux14-${name}-${colorScheme}-${viewport.width}`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

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

/**
 * Issue 14 §5 end to end: the usage meter in the session header (H16), and stall detection: the scripted
 * agent goes silent mid-turn, the session says for how long, news from the agent hides the notice, Stop ends
 * the turn, and Restart agent asks first. The silence threshold is shortened through `limits.stallNoticeMs`.
 */
import { beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright'
import { expectAxeCleanInBothThemes } from './support/axe'
import { screenshot, screenshotDir, useApp } from './support/harness'
import { gone, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const AGENT = 'Scripted agent'
const { app, page } = useApp([{ id: 'scripted', name: AGENT, scenario: 'e2e-meter' }], { limits: { stallNoticeMs: 1500 } })
beforeAll(() => startSession(page, { agentName: AGENT, cwd: app.home.workspace }))

const header = () => page.locator('header.session-header')
const meter = () => page.getByRole('meter', { name: 'Context window' })
const stall = () => page.getByRole('region', { name: `${AGENT} is silent` })

/** Light and dark, the whole window and the part that matters. */
async function shots(name: string, part: () => ReturnType<Page['locator']>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await screenshot(page, `${name}-${scheme}`)
    await part().screenshot({ path: join(screenshotDir, `${name}-${scheme}-part.png`) })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

it('shows no meter until the agent reports usage, then the context fill and the cost', async () => {
  expect(await meter().count()).toBe(0)
  await sendPrompt(page, 'usage')
  await waitIdle(page)
  await visible(meter())
  expect(await meter().getAttribute('aria-valuetext')).toBe('48k of 200k tokens, 24 percent')
  expect(await meter().getAttribute('aria-valuenow')).toBe('48000')
  await visible(header().getByText('48k / 200k tokens'))
  await visible(header().getByLabel('Cost so far: $0.42'))
  await shots('usage-meter', header)
  await expectAxeCleanInBothThemes(page, 'the header with the usage meter', 'header.session-header')
  // A narrow window: the header wraps, the meter keeps its words on one line.
  await page.setViewportSize({ width: 720, height: 600 })
  await shots('usage-meter-narrow', header)
  await page.setViewportSize({ width: 1280, height: 800 })
})

it('says how long the agent has been silent mid-turn, hides it when news comes, and Stop ends the turn', async () => {
  await sendPrompt(page, 'stall')
  await visible(transcript(page).getByText('Looking into it.'))
  // The string count was read; three quarters full.
  await visible(header().getByText('152k / 200k tokens'))
  const notice = await visible(stall())
  await visible(notice.getByText(/^No word from Scripted agent for \d+ s$/))
  // The agent speaks again when told (a file in its folder), however long that took: the notice goes at once (and
  // comes back when it falls silent again).
  writeFileSync(join(app.home.workspace, 'speak-again'), '')
  await gone(stall())
  await visible(transcript(page).getByText('Still here.', { exact: false }))
  await visible(stall())
  await shots('stall-notice', () => page.locator('.session-bottom'))
  await expectAxeCleanInBothThemes(page, 'the stall notice', '.stall-notice')
  await stall().getByRole('button', { name: 'Stop this turn' }).click()
  await waitIdle(page)
  expect(await stall().count()).toBe(0)
})

it('Restart agent asks first; Cancel keeps the turn, confirming restarts the agent and ends the turn', async () => {
  await sendPrompt(page, 'quiet')
  await visible(transcript(page).getByText('Working quietly.'))
  const notice = await visible(stall())
  await notice.getByRole('button', { name: 'Restart agent' }).click()
  const confirm = await visible(notice.getByRole('group', { name: `Restart ${AGENT}?` }))
  await visible(confirm.getByText(`Restart ${AGENT}? This turn ends.`))
  await shots('stall-restart-confirm', () => page.locator('.session-bottom'))
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await gone(confirm)
  expect(await page.getByRole('status', { name: 'Turn: Working…' }).count()).toBe(1)
  await notice.getByRole('button', { name: 'Restart agent' }).click()
  await (await visible(notice.getByRole('group', { name: `Restart ${AGENT}?` }))).getByRole('button', { name: `Restart ${AGENT}` }).click()
  await waitIdle(page)
  await gone(stall())
  // The restarted agent takes the next message in the same session.
  await sendPrompt(page, 'hello')
  await visible(transcript(page).getByText('Done.'))
  await waitIdle(page)
}, 60_000)

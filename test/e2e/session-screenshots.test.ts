/**
 * Screenshots of the session screen with a real transcript (reply, thought, tool call with a diff, plan)
 * in the light and the dark theme, saved as test/e2e/screenshots/session-{light,dark}.png for people to
 * look at. The theme follows the OS (`prefers-color-scheme`), which the test checks on the page.
 */
import { statSync } from 'node:fs'
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { agentSays, openPlan, sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

for (const colorScheme of ['light', 'dark'] as const) {
  it(`saves the session screen in the ${colorScheme} theme`, async () => {
    const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' }, { colorScheme, viewport: { width: 1280, height: 860 } })
    await sendPrompt(page, 'fix')
    await visible(agentSays(page, AGENT).getByText('Done: answer is 42 now.'))
    await visible(transcript(page).getByRole('row', { name: 'added: export const answer = 42' }))
    await visible((await openPlan(page)).getByRole('listitem').nth(2))
    // A field Bosun does not know (a newer schema's) is kept and shown as it is.
    await visible(transcript(page).getByText('Other fields from the agent'))
    await waitIdle(page)

    // The page really is in the requested theme: the background is light or dark.
    const luminance = await page.evaluate(() => {
      const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number) as [number, number, number]
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
    })
    if (colorScheme === 'light') expect(luminance).toBeGreaterThan(0.8)
    else expect(luminance).toBeLessThan(0.25)

    // Fonts and layout settled: no pending font loads, the caret hidden so images are stable.
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    const path = await screenshot(page, `session-${colorScheme}`)
    expect(statSync(path).size).toBeGreaterThan(10_000)
  })
}

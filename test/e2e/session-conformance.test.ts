/**
 * The session screen's conformance and driving-real-agents fixes (issue 10 §4, issue 11 §3), in the browser host
 * with the scripted agent, light and dark: the header keeps its height between Idle and Working; a tool title and
 * a plan keep what the agent said (line breaks, cancelled); a refused message is shown as not sent, with the
 * agent's details, and its text stays in the composer; a session the restarted agent cannot continue says so
 * where the person types. Screenshots: test/e2e/screenshots/conformance-*.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot, type E2eApp } from './support/harness'
import { agentSays, messageBox, openPlan, sendPrompt, startSession, stopButton, transcript, turnStatus, visible, waitIdle } from './support/session-ui'

const AGENT = 'Conformance agent'
const FORGETFUL = 'Forgetful agent'

const launch = launchPerTest()

const headerHeight = (app: E2eApp) => app.page.locator('header.session-header').evaluate((el) => el.getBoundingClientRect().height)

for (const colorScheme of ['light', 'dark'] as const) {
  it(`session screen fixes in the ${colorScheme} theme`, async () => {
    const app = await launch(
      [
        { id: 'conformance', name: AGENT, scenario: 'e2e-conformance', v2: true },
        { id: 'forgetful', name: FORGETFUL, scenario: 'e2e-conformance-forgetful' },
      ],
      { colorScheme, viewport: { width: 1280, height: 820 } },
    )
    const { page } = app
    await startSession(page, { agentName: AGENT, cwd: app.home.workspace })

    // 1. The header keeps one height between Idle and Working, at every window width.
    // (Fine steps: the controls wrap to a second row within a few pixels of one width.)
    const widths = Array.from({ length: 64 }, (_, i) => 760 + i * 10)
    const idle: number[] = []
    for (const width of widths) {
      await page.setViewportSize({ width, height: 820 })
      idle.push(await headerHeight(app))
    }
    await sendPrompt(page, 'slow')
    await visible(page.getByRole('status', { name: 'Turn: Working…' }))
    const working: number[] = []
    for (const width of widths) {
      await page.setViewportSize({ width, height: 820 })
      working.push(await headerHeight(app))
    }
    expect(working).toEqual(idle)
    await (await visible(stopButton(page))).click()
    await waitIdle(page)

    // 2. Line breaks in a tool title, a cancelled plan entry (and an unknown status shown by its name).
    await sendPrompt(page, 'lines')
    await visible(agentSays(page, AGENT).getByText('Both lines are above.'))
    await waitIdle(page)
    const title = transcript(page).locator('.tool-title').first()
    const lines = await title.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || '16'))
    expect(lines).toBeGreaterThanOrEqual(1.8)
    const plan = await openPlan(page)
    await visible(plan.getByRole('img', { name: 'cancelled' }))
    await visible(plan.getByRole('img', { name: 'deferred' }))
    expect(await plan.getByRole('img', { name: 'pending' }).count()).toBe(0)
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
    await screenshot(page, `conformance-lines-${colorScheme}`)

    // 3. A message the agent refuses: not sent, with its details; the text stays in the composer; Edit puts it back.
    await sendPrompt(page, 'reject')
    const note = await visible(transcript(page).getByRole('note', { name: 'Not sent' }))
    await visible(note.getByText('Prompt too long'))
    await visible(note.getByText(/the limit is 4096/))
    // Shown once, in the transcript: no toast repeating it.
    expect(await page.getByText('Sending the message failed').count()).toBe(0)
    await expect.poll(() => messageBox(page).inputValue()).toBe('reject')
    expect(await turnStatus(page).getAttribute('aria-label')).toBe('Turn: Idle')
    await messageBox(page).fill('')
    await note.getByRole('button', { name: 'Edit' }).click()
    await expect.poll(() => messageBox(page).inputValue()).toBe('reject')
    await screenshot(page, `conformance-not-sent-${colorScheme}`)

    // 3b. A form with a required field Bosun cannot show: shown and explained; Accept is off; Decline answers the agent.
    await messageBox(page).fill('')
    await sendPrompt(page, 'unknown-field')
    const form = await visible(transcript(page).getByRole('form', { name: `Answer to ${AGENT}` }))
    await visible(transcript(page).getByText(/This form requires a field Bosun cannot show \(Colour\)/))
    expect(await form.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true)
    await screenshot(page, `conformance-unknown-field-${colorScheme}`)
    // Pressed as a person presses (150 ms): the press moves the focus into the form, and the view used to stop following
    // at once, showing Jump to latest below the transcript; the form moved up under the pointer and the release landed
    // on the transcript, so the agent never had its answer.
    await form.getByRole('button', { name: 'Decline' }).click({ delay: 150 })
    await visible(agentSays(page, AGENT).getByText('elicitation response: {"action":"decline"}'))
    await waitIdle(page)

    // 4. A session its restarted agent cannot continue: said where the person types, with the way forward.
    await startSession(page, { agentName: FORGETFUL, cwd: app.home.workspace })
    await sendPrompt(page, 'crash')
    await visible(agentSays(page, FORGETFUL).getByText('about to fall over'))
    await visible(transcript(page).getByRole('alert').getByText(/The turn ended with an error/))
    await waitIdle(page)
    await sendPrompt(page, 'hello again')
    const blocked = await visible(page.getByRole('region', { name: 'This session cannot continue' }), 60_000)
    await visible(blocked.getByText(/can neither load nor resume sessions/))
    await visible(blocked.getByText('hello again'))
    // Said once, where the person types: not again in a "Sending the message failed" notice above the transcript.
    expect(await page.getByText('Sending the message failed').count()).toBe(0)
    // The crash's alert no longer offers to send again (it could only fail): its log stays.
    expect(await transcript(page).getByRole('button', { name: 'Send again' }).count()).toBe(0)
    await visible(transcript(page).getByRole('button', { name: 'Agent’s log' }))
    expect(await messageBox(page).count()).toBe(0)
    // Nothing left to approve or set either: the auto-approve switch and the agent's selectors go with the composer.
    expect(await page.locator('.session-footer').count()).toBe(0)
    expect(await page.getByRole('switch', { name: /auto-approve/i }).count()).toBe(0)
    await screenshot(page, `conformance-cannot-continue-${colorScheme}`)
    await blocked.getByRole('button', { name: /^New session in / }).click()
    await visible(messageBox(page))
    await expect.poll(() => page.getByRole('region', { name: 'This session cannot continue' }).count()).toBe(0)
  }, 180_000)
}

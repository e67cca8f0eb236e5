/**
 * Restart and Stop on the Agents page while the agent's sessions are at work: a turn running or a request waiting on
 * the person is cut by them, so they ask first and say what happens; with nothing at work they act at once.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { gone, sendPrompt, turnStatus, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('asks before restarting an agent with a turn running, and restarts at once when nothing runs', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' })
  await sendPrompt(page, 'slow')
  await visible(page.getByRole('status', { name: /^Turn: (?!Idle)/ }))

  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: new RegExp(`^${AGENT} `) }).click()
  const restart = dialog.getByRole('button', { name: 'Restart', exact: true })
  await restart.click()
  const question = await visible(dialog.getByRole('alertdialog', { name: `Restart ${AGENT}?` }))
  expect(await question.getByRole('paragraph').innerText()).toBe(
    `Restarting ${AGENT} ends the turn running in 1 session. Open sessions reconnect to the restarted agent where it can continue them.`,
  )
  // The safe answer has the focus; Escape leaves the question (not the page) and puts focus back on Restart.
  expect(await question.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).toBe(true)
  await screenshot(page, 'agents-restart-question-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'agents-restart-question-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.keyboard.press('Escape')
  await gone(question)
  await visible(dialog)
  expect(await restart.evaluate((el) => el === document.activeElement)).toBe(true)

  // Answered: the agent restarts and the turn it was running ends.
  await restart.click()
  await dialog.getByRole('button', { name: 'Restart anyway' }).click()
  await gone(dialog.getByRole('alertdialog'))
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  await gone(dialog)
  await waitIdle(page)
  // The turn ended in the person's words: not "The turn ended with an error: Scripted agent was stopped." with the
  // agent's log offered for "what went wrong", when nothing went wrong.
  const ended = await visible(page.getByRole('log', { name: 'Transcript' }).getByText(`Interrupted: you restarted ${AGENT} while this turn was running.`, { exact: true }))
  expect(await page.getByText(/ended with an error/).count()).toBe(0)
  // Said as a fact (a status, in the notes' colours), not raised as an alarm.
  expect(await ended.evaluate((el) => el.closest('.turn-error')?.getAttribute('role'))).toBe('status')
  expect(await page.getByRole('button', { name: 'Agent’s log' }).count()).toBe(0)
  await visible(page.getByRole('button', { name: 'Send again' }))
  // Nor is the session marked in the sidebar as one whose last turn ended with an error: the person restarted it.
  expect(await page.getByRole('img', { name: 'The last turn ended with an error' }).count()).toBe(0)
  await ended.scrollIntoViewIfNeeded()
  await screenshot(page, 'agents-restart-turn-interrupted')

  // Nothing at work now: Restart restarts without a question.
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  await visible(dialog)
  await dialog.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: new RegExp(`^${AGENT} `) }).click()
  const pidBefore = await dialog.getByText(/^pid \d+$/).innerText()
  await restart.click()
  await expect.poll(async () => (await dialog.getByText(/^pid \d+$/).count()) === 1 && (await dialog.getByText(/^pid \d+$/).innerText()) !== pidBefore).toBe(true)
  expect(await dialog.getByRole('alertdialog').count()).toBe(0)
  expect(await turnStatus(page).count()).toBe(1)

  // The next turn: the interrupted one stays marked in the transcript as the person's restart, not as an alarm.
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  await gone(dialog)
  await sendPrompt(page, 'hello again')
  await waitIdle(page)
  const mark = await visible(page.getByRole('note', { name: 'How the turn ended' }).filter({ hasText: `Interrupted: you restarted ${AGENT}` }))
  expect(await mark.evaluate((el) => el.classList.contains('turn-error-mark-chosen'))).toBe(true)
  await mark.scrollIntoViewIfNeeded()
  await screenshot(page, 'agents-restart-turn-interrupted-mark')
})

/**
 * The sidebar's New session form from the keyboard: cancelled (Escape, Cancel), it gives the focus back to the control
 * that opened it (New session, an agent's +), where the focus fell to the page and the next Tab started over.
 */
import { it } from 'vitest'
import type { Locator } from 'playwright'
import { launchPerTest } from './support/harness'
import { gone, until, visible } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('Escape or Cancel in the New session form gives the focus back to what opened it', async () => {
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }])
  const { page } = app
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  const form = page.getByRole('form', { name: 'New session' })
  const focused = (locator: Locator) => until(locator, (el) => el === document.activeElement)

  const newSession = await visible(nav.getByRole('button', { name: 'New session', exact: true }))
  await newSession.focus()
  await page.keyboard.press('Enter')
  await focused(form.getByRole('textbox', { name: 'Working folder' }))
  await page.keyboard.press('Escape')
  await gone(form)
  await focused(newSession)

  const plus = nav.getByRole('button', { name: `New session with ${AGENT}` })
  await plus.focus()
  await page.keyboard.press('Enter')
  await visible(form)
  await form.getByRole('button', { name: 'Cancel' }).focus()
  await page.keyboard.press('Enter')
  await gone(form)
  await focused(plus)
})

/**
 * The message box keeps its width as a turn starts and ends: Send and Stop take the same room (Stop was 3 px narrower,
 * so the box widened and a long draft could re-wrap as the turn started).
 */
import { expect, it } from 'vitest'
import { launchPerTest } from './support/harness'
import { messageBox, sendButton, sendPrompt, stopButton, visible, waitIdle } from './support/session-ui'

const AGENT = 'Scripted agent'
const launch = launchPerTest()

it('Send and Stop are one width, so the message box does not change width as the turn starts and stops', async () => {
  const { page } = await launch.session({ id: 'scripted', name: AGENT, scenario: 'e2e-session' })
  const width = async (locator: ReturnType<typeof messageBox>) => (await locator.boundingBox())!.width
  const idleBox = await width(messageBox(page))
  const send = await width(await visible(sendButton(page)))
  await sendPrompt(page, 'slow')
  const stop = await width(await visible(stopButton(page)))
  expect(stop).toBe(send)
  expect(await width(messageBox(page))).toBe(idleBox)
  await stopButton(page).click()
  await waitIdle(page)
  expect(await width(messageBox(page))).toBe(idleBox)
})

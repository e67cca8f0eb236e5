/**
 * The first moments after the page loads, before main's first snapshot has come: the sidebar lists no agents yet,
 * and that must not read as "no agents are defined". New session then opens its form (which takes the agent when it
 * comes), not the Agents page that a fresh Bosun with no agents leads to. The snapshot is held back in the socket.
 */
import { expect, it } from 'vitest'
import type { Page } from 'playwright'
import type { WireCall, WireFromHost } from '../../common/wire'
import { launchPerTest, screenshot } from './support/harness'
import { gone, messageBox, until, visible } from './support/session-ui'

const AGENT = 'Scripted agent'

const launch = launchPerTest()

/** Passes the socket through, holding back the answers to `getSnapshot` until `release` is called. */
async function holdSnapshots(page: Page): Promise<{ release: () => void }> {
  const waiting = new Set<number>()
  const heldAnswers: string[] = []
  let holding = true
  const toPage: ((message: string) => void)[] = []
  await page.routeWebSocket(/bosun-ws/, (ws) => {
    const server = ws.connectToServer()
    toPage.push((message) => ws.send(message))
    ws.onMessage((message) => {
      const call = JSON.parse(String(message)) as WireCall
      if (call.type === 'call' && call.name === 'getSnapshot') waiting.add(call.id)
      server.send(message)
    })
    server.onMessage((message) => {
      const answer = JSON.parse(String(message)) as WireFromHost
      if (holding && answer.type === 'result' && waiting.has(answer.id)) heldAnswers.push(String(message))
      else ws.send(message)
    })
  })
  return {
    release: () => {
      holding = false
      for (const message of heldAnswers.splice(0)) for (const send of toPage) send(message)
    },
  }
}

it('New session before the agents have loaded opens the form, which takes the agent when it comes', async () => {
  let snapshots: Awaited<ReturnType<typeof holdSnapshots>> | undefined
  const app = await launch([{ id: 'scripted', name: AGENT, scenario: 'e2e-session' }], {
    beforeLoad: async (page) => (snapshots = await holdSnapshots(page)),
  })
  const { page } = app
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  await visible(nav.getByText('Loading agents…'))

  await nav.getByRole('button', { name: 'New session', exact: true }).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))
  expect(await page.getByRole('dialog', { name: 'Agents' }).count()).toBe(0)
  const agent = form.getByRole('combobox', { name: 'Agent' })
  expect(await agent.locator('option').allInnerTexts()).toEqual(['Loading agents…'])
  await screenshot(page, 'startup-new-session-loading')

  snapshots!.release()
  await until<HTMLSelectElement>(agent, (el) => el.selectedOptions[0]?.textContent === 'Scripted agent')
  await form.getByRole('textbox', { name: 'Working folder' }).fill(app.home.workspace)
  await form.getByRole('button', { name: 'Start session' }).click()
  await gone(form)
  await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
})

it('with no agent defined, New session clicked while loading leads to the Agents page once the agents are known', async () => {
  let snapshots: Awaited<ReturnType<typeof holdSnapshots>> | undefined
  const app = await launch([], { beforeLoad: async (page) => (snapshots = await holdSnapshots(page)) })
  const { page } = app
  const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
  // Not "No agents yet" before main has said so.
  await visible(nav.getByText('Loading agents…'))
  expect(await nav.getByText('No agents yet.').count()).toBe(0)
  await nav.getByRole('button', { name: 'New session', exact: true }).click()
  const form = await visible(page.getByRole('form', { name: 'New session' }))

  snapshots!.release()
  await visible(page.getByRole('dialog', { name: 'Agents' }))
  await gone(form)
  await page.keyboard.press('Escape')
  await gone(page.getByRole('dialog', { name: 'Agents' }))
  await visible(nav.getByText('No agents yet.'))
  await nav.getByRole('button', { name: 'New session', exact: true }).click()
  await visible(page.getByRole('dialog', { name: 'Agents' }))
  expect(await page.getByRole('form', { name: 'New session' }).count()).toBe(0)
})

it('with no agent defined, the empty window says so and its Set up an agent opens the Agents page (it sent the person to New session), then takes back the focus', async () => {
  let snapshots: Awaited<ReturnType<typeof holdSnapshots>> | undefined
  const app = await launch([], { beforeLoad: async (page) => (snapshots = await holdSnapshots(page)) })
  const { page } = app
  const main = page.getByRole('main', { name: 'No session' })
  // Not before main has said there is none.
  await visible(main.getByRole('heading', { name: 'No session is open' }))
  expect(await main.getByRole('button', { name: 'Set up an agent' }).count()).toBe(0)
  snapshots!.release()
  await visible(main.getByRole('heading', { name: 'No agent is set up yet' }))
  expect(await main.getByText('“New session”', { exact: false }).count()).toBe(0)
  // One primary action in the window: the sidebar's New session and Set up an agent lead to the same page, plainer.
  expect(await page.locator('.button-primary').evaluateAll((buttons) => buttons.map((b) => b.textContent?.trim()))).toEqual(['Set up an agent'])
  await visible(page.getByRole('navigation', { name: 'Agents and sessions' }).getByRole('button', { name: 'Set up an agent' }))
  const setUp = main.getByRole('button', { name: 'Set up an agent' })
  await setUp.focus()
  await page.keyboard.press('Enter')
  await visible(page.getByRole('dialog', { name: 'Agents' }))
  await page.keyboard.press('Escape')
  await gone(page.getByRole('dialog', { name: 'Agents' }))
  await until(setUp, (el) => el === document.activeElement)
})

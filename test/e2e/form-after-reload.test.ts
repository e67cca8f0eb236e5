/**
 * A form accepted before the page was reloaded shows what was sent, not the agent's defaults again (UX pass), and a
 * field that looks like it holds a secret shows that it was answered, never what: main keeps the answer without it.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { gone, sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Form agent'
// Registered before the launch: the scenario is removed after the app that runs it is closed.
const writeScenario = scenarioFiles()
const launch = launchPerTest()
const SECRET = 'tok-7f3a-never-kept'

function formScenario(): string {
  const form = {
    mode: 'form',
    message: 'A few details first.',
    requestedSchema: {
      type: 'object',
      title: 'Project setup',
      properties: {
        name: { type: 'string', title: 'Project name', default: 'demo' },
        token: { type: 'string', title: 'API token' },
        workers: { type: 'integer', title: 'Workers', default: 2 },
        tests: { type: 'boolean', title: 'Run the tests', default: true },
        notes: { type: 'string', title: 'Notes', default: 'none' },
      },
    },
  }
  return writeScenario('form-reload', { prompts: { ask: [{ type: 'elicitation', params: form }, { type: 'text', text: 'Thanks.' }] } })
}

for (const colorScheme of ['light', 'dark'] as const) {
  it(`shows what an accepted form sent after a reload, and that a secret-like field was answered, not what (${colorScheme})`, async () => {
    const app = await launch.session({ id: 'form', name: AGENT, scenario: formScenario() }, { colorScheme })
    const { page } = app
    await sendPrompt(page, 'ask')
    const card = () => transcript(page).getByRole('region', { name: 'Project setup', exact: true })
    await visible(card())
    await card().getByRole('textbox', { name: 'Project name' }).fill('acme')
    await card().getByRole('textbox', { name: 'API token' }).fill(SECRET)
    await card().getByRole('spinbutton', { name: 'Workers' }).fill('5')
    await card().getByRole('textbox', { name: 'Notes' }).fill('')
    await card().getByRole('checkbox', { name: 'Run the tests' }).uncheck()
    await card().getByRole('button', { name: 'Accept' }).click()
    await visible(card().getByRole('status').getByText('Answered'))
    await waitIdle(page)

    // A new page (a reload drops the key from the address: the host's address is opened again).
    await page.goto(app.host.url)
    const nav = page.getByRole('navigation', { name: 'Agents and sessions' })
    await (await visible(nav.getByRole('button', { name: /^ask/ }).first())).click()
    await visible(card().getByRole('status').getByText('Answered'))
    expect(await card().getByRole('textbox', { name: 'Project name' }).inputValue()).toBe('acme')
    expect(await card().getByRole('spinbutton', { name: 'Workers' }).inputValue()).toBe('5')
    expect(await card().getByRole('checkbox', { name: 'Run the tests' }).isChecked()).toBe(false)
    // Left empty when sent: empty now, not the agent's default.
    expect(await card().getByRole('textbox', { name: 'Notes' }).inputValue()).toBe('')
    // The secret-like field: answered, not shown (main did not keep it: broker.test.ts).
    const token = card().getByRole('textbox', { name: 'API token' })
    expect(await token.inputValue()).toBe('')
    await visible(card().getByText('Answered. Not shown: Bosun does not keep what may be a secret.'))
    expect(await card().evaluate((el) => el.outerHTML)).not.toContain(SECRET)
    await gone(card().getByRole('button', { name: 'Accept' }))
    await screenshot(page, `form-after-reload-${colorScheme}`)
  })
}


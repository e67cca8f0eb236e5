/**
 * An agent that lists its config options and their values again and again (the same ids three times, 30 options of
 * 10 ids, each value four times): the header shows each option once and each value once, and choosing the one
 * repeated option sets it. Before, every option showed three times under one React key, each value four times.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { startSession, until, visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

function scenario(): string {
  const values = Array.from({ length: 20 }, (_, j) => ({ value: `v${j % 5}`, name: `Value ${j % 5}` }))
  return writeScenario('hostile-odd-facts', {
    initialize: { agentInfo: { name: 'scripted', title: 'Scripted agent', version: '1.0.0' } },
    session: {
      configOptions: Array.from({ length: 30 }, (_, i) => ({
        configId: i % 10 === 0 ? 'mode' : `opt${i % 10}`,
        name: i % 10 === 0 ? 'Mode' : `Option ${i % 10}`,
        category: i % 10 === 0 ? 'mode' : 'other',
        type: 'select',
        currentValue: 'v0',
        options: values,
      })),
    },
    prompts: { default: [{ type: 'text', text: 'Noted.' }] },
  })
}

it('options and values the agent repeats are shown once each, and the repeated option is set', async () => {
  const app = await launch([{ id: 'odd', name: 'Scripted agent', scenario: scenario(), v2: true }])
  const { page } = app
  await startSession(page, { agentName: 'Scripted agent', cwd: app.home.workspace })
  const mode = await visible(page.getByRole('combobox', { name: 'Mode', exact: true }))
  expect(await page.getByRole('combobox', { name: 'Mode', exact: true }).count()).toBe(1)
  expect(await page.getByRole('combobox', { name: 'Option 3', exact: true }).count()).toBe(1)
  expect(await mode.locator('option').allTextContents()).toEqual(['Value 0', 'Value 1', 'Value 2', 'Value 3', 'Value 4'])
  await mode.selectOption({ label: 'Value 3' })
  await until<HTMLSelectElement>(mode, (el) => el.value === 'v3')
  await screenshot(page, 'hostile-odd-facts-light')
})

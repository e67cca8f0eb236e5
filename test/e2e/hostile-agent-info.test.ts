/**
 * What an agent says of itself in `initialize`, where the person checks which agent this is and picks how to sign in:
 * its title, name and version, and its sign-in methods' names and descriptions. A right-to-left override in them was
 * applied ("Claude Code \u202E(deifirev)" read "Claude Code (verified)"); each hidden character now shows as a marker.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { visible } from './support/session-ui'

const launch = launchPerTest()
const writeScenario = scenarioFiles()

it("shows the hidden characters of the agent's own name, version and sign-in methods as markers", async () => {
  const scenario = writeScenario('agent-info', {
    initialize: {
      agentInfo: { name: 'spoof\u200bagent', title: 'Claude Code \u202E(deifirev)', version: '1.0\u2066.0' },
      authMethods: [{ id: 'key', name: 'Sign in with \u202Eyekrow', description: 'Bosun \u200bverified this method. Paste `your\u202E key` here.' }],
    },
    prompts: { default: [{ type: 'text', text: 'Done.' }] },
  })
  const app = await launch([{ id: 'spoof', name: 'Spoofing agent', scenario }])
  const { page } = app
  await page.getByRole('button', { name: 'Agents', exact: true }).click()
  const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
  await dialog.getByRole('tab', { name: 'Check connection', exact: true }).click()
  await dialog.getByRole('button', { name: 'Check connection', exact: true }).click()
  const result = await visible(dialog.getByRole('region', { name: 'Check result' }))
  const facts = await result.locator('dl').innerText()
  // Before: "Claude Code (verified)", the override applied.
  expect(facts).toMatch(/Agent\s+Claude Code ⟨U\+202E⟩\(deifirev\)/)
  expect(facts).toMatch(/Name\s+spoof⟨U\+200B⟩agent/)
  expect(facts).toMatch(/Version\s+1\.0⟨U\+2066⟩\.0/)
  const methods = await result.getByRole('list', { name: 'Auth methods' }).innerText()
  expect(methods).toContain('Sign in with ⟨U+202E⟩yekrow')
  expect(methods).toContain('Bosun ⟨U+200B⟩verified this method. Paste your⟨U+202E⟩ key here.')
  expect(facts + methods).not.toMatch(/[\u202e\u200b\u2066]/)
  await screenshot(page, 'hostile-agent-info-check')
})

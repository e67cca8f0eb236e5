/**
 * An agent that does not start: the new-session form says why, and shows what the agent printed (its stderr and
 * what it wrote on stdout that is not ACP), as Gemini CLI does when it asks on its terminal for a sign-in code; its
 * page on Agents (definition, log, sign-in) is the way on, and Close comes back to the form.
 */
import { describe, expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { gone, submitNewSession, visible } from './support/session-ui'

const AGENT = 'Terminal sign-in agent'
/** Prints a sign-in prompt on stdout, takes Bosun's `initialize` line for the code, and exits 41. */
const SCRIPT = `process.stdout.write('\\x1b[?1049hPlease visit the following URL to authorize the application:\\n\\nhttps://example.test/auth\\n\\nEnter the authorization code: ');
process.stdin.once('data', () => { process.stderr.write('Failed to authenticate with user code.\\n'); process.exit(41) })`

const launch = launchPerTest()

describe('an agent that does not start', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`says why in the new-session form, with what the agent printed (${colorScheme})`, async () => {
      const app = await launch([{ id: 'prompting', name: AGENT, scenario: 'unused', command: { command: process.execPath, args: ['-e', SCRIPT] } }], { colorScheme })
      const { page } = app
      const form = await submitNewSession(page, { cwd: app.home.workspace })
      await visible(form.getByRole('alert').getByText(`${AGENT} exited with code 41 while starting. Failed to authenticate with user code.`))
      await form.getByText('What the agent printed').click()
      const output = await visible(form.getByRole('region', { name: 'Agent error output' }).or(form.getByLabel('Agent error output')))
      const text = await output.textContent()
      expect(text).toContain('[Bosun: on stdout, not JSON] Please visit the following URL to authorize the application:')
      expect(text).toContain('[Bosun: on stdout, not JSON] https://example.test/auth')
      expect(text).toContain('Failed to authenticate with user code.')
      // The terminal escape the agent printed is not shown.
      expect(text).not.toContain('[?1049h')
      await screenshot(page, `start-failure-output-${colorScheme}`)

      // The way on: the agent's page, where its definition, log and sign-in are; Close comes back to the form.
      const agentPage = form.getByRole('button', { name: `Open ${AGENT} on the Agents page` })
      await agentPage.click()
      const dialog = await visible(page.getByRole('dialog', { name: 'Agents' }))
      await visible(dialog.getByRole('heading', { level: 2, name: AGENT }))
      await visible(dialog.getByRole('tab', { name: 'Overview', selected: true }))
      await dialog.getByRole('button', { name: 'Close', exact: true }).click()
      await gone(dialog)
      await expect.poll(() => agentPage.evaluate((el) => el === document.activeElement)).toBe(true)
    })
  }
})

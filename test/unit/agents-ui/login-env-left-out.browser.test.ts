/**
 * A terminal login whose env asks for variables Bosun leaves out (LD_PRELOAD, NODE_OPTIONS, PATH…): the method says
 * which, before the terminal opens. Screenshots land in test/e2e/screenshots/login-env-left-out-<scheme>.png.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { screenshotDir } from '../../e2e/support/harness'

const entry = `
import { createRoot } from 'react-dom/client'
import { LoginPanel } from './renderer/components/agents/LoginPanel'
import { createFakeAgentsBosun } from './renderer/dev/agents/fake-agents'
const fake = createFakeAgentsBosun({ keychainAvailable: true })
const method = {
  id: 'term', name: 'Log in in a terminal', type: 'terminal', commandLine: 'acme-agent --acp --login',
  envLeftOut: ['LD_PRELOAD', 'NODE_OPTIONS', 'PATH'],
}
const overrides = { listAuthMethods: () => Promise.resolve({ ok: true, value: { methods: [method] } }) }
const api = new Proxy(fake.api, { get: (target, prop) => overrides[prop] ?? target[prop] })
createRoot(document.getElementById('root')).render(<LoginPanel api={api} agentId="claude" agentName="Acme" keychainAvailable logoutSupported={false} />)
`

const styles = ['renderer/styles/app.css', 'renderer/components/agents/agents.css', 'renderer/screens/agents/agents-screen.css'].map((f) => readFileSync(f, 'utf8')).join('\n')
const harness = browserHarness(entry)

describe('a terminal login with env Bosun leaves out', { timeout: 30_000 }, () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`names the variables left out before the terminal opens (${colorScheme})`, async () => {
      const page = await harness.open({ viewport: { width: 900, height: 320 }, styles })
      try {
        await page.emulateMedia({ colorScheme })
        const method = page.getByRole('list', { name: 'Sign-in methods' }).getByRole('listitem')
        await method.getByRole('button', { name: 'Open terminal' }).waitFor()
        expect(await method.textContent()).toContain(
          'Bosun does not pass on LD_PRELOAD, NODE_OPTIONS, PATH from this sign-in: variables that could make the program run other code or trust other servers.',
        )
        await page.locator('#root').screenshot({ path: join(screenshotDir, `login-env-left-out-${colorScheme}.png`) })
        expect(page.errors).toEqual([])
      } finally {
        await page.close()
      }
    })
  }
})

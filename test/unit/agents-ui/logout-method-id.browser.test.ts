/**
 * A sign-in method may be called anything, `logout` included: what a logout does (running, then its outcome) is
 * kept apart from what is kept by method id, so such a method neither reads "Signing in…" while the agent signs out
 * nor shows the logout's outcome as its own.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
import { LoginPanel } from './renderer/components/agents/LoginPanel'
import { createFakeAgentsBosun } from './renderer/dev/agents/fake-agents'
const fake = createFakeAgentsBosun({ keychainAvailable: true })
const overrides = {
  listAuthMethods: () => Promise.resolve({ ok: true, value: { methods: [{ id: 'logout', name: 'Browser', type: 'agent' }] } }),
  logoutAgent: () => new Promise((resolve) => {
    window.__endLogout = () => resolve({ ok: false, error: { kind: 'rpc-error', message: 'The agent refused to log out' } })
  }),
}
const api = new Proxy(fake.api, { get: (target, prop) => overrides[prop] ?? target[prop] })
createRoot(document.getElementById('root')).render(<LoginPanel api={api} agentId="claude" agentName="Claude" keychainAvailable logoutSupported />)
`

const harness = browserHarness(entry)

describe('a sign-in method whose id is `logout`', { timeout: 30_000 }, () => {
  it('is not the logout: neither its progress nor its outcome', async () => {
    const page = await harness.open()
    try {
      const method = page.getByRole('list', { name: 'Sign-in methods' }).getByRole('listitem')
      await method.getByRole('button', { name: 'Sign in with Browser' }).waitFor()
      await page.getByRole('button', { name: 'Sign out', exact: true }).click()
      await page.getByText('Signing out…').waitFor()
      expect(await method.textContent()).not.toContain('Signing in…')
      await page.evaluate(() => (window as unknown as { __endLogout: () => void }).__endLogout())
      await page.getByRole('region', { name: 'Sign out' }).getByText('The agent refused to log out').waitFor()
      expect(await method.textContent()).not.toContain('The agent refused to log out')
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})

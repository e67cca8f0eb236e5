/**
 * Without a system keychain, a key cannot be stored: the agent's key fields (disabled, "Keychain unavailable") came
 * first in the sign-in panel, above the ways that do work. They now come after the agent's sign-in methods; with a
 * keychain they stay first.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = (keychainAvailable: boolean) => `
import { createRoot } from 'react-dom/client'
import { LoginPanel } from './renderer/components/agents/LoginPanel'
import { createFakeAgentsBosun } from './renderer/dev/agents/fake-agents'
const fake = createFakeAgentsBosun({ keychainAvailable: ${keychainAvailable} })
const overrides = {
  listAuthMethods: () => Promise.resolve({ ok: true, value: { methods: [{ id: 'browser', name: 'Browser', type: 'agent' }] } }),
}
const api = new Proxy(fake.api, { get: (target, prop) => overrides[prop] ?? target[prop] })
createRoot(document.getElementById('root')).render(<LoginPanel api={api} agentId="codex" agentName="Codex" keychainAvailable={${keychainAvailable}} />)
`

const withKeychain = browserHarness(entry(true))
const withoutKeychain = browserHarness(entry(false))

/** Whether the Keys card comes before the list of sign-in methods in the page. */
async function keysFirst(harness: ReturnType<typeof browserHarness>): Promise<boolean> {
  const page = await harness.open()
  try {
    await page.getByRole('region', { name: 'Keys' }).waitFor()
    await page.getByRole('list', { name: 'Sign-in methods' }).waitFor()
    expect(page.errors).toEqual([])
    return await page.evaluate(() => {
      const keys = document.querySelector('[aria-label="Keys"]')!
      const methods = document.querySelector('[aria-label="Sign-in methods"]')!
      return Boolean(keys.compareDocumentPosition(methods) & Node.DOCUMENT_POSITION_FOLLOWING)
    })
  } finally {
    await page.close()
  }
}

describe('the agent’s key fields in the sign-in panel', { timeout: 30_000 }, () => {
  it('come after the sign-in methods when no keychain can store them', async () => {
    expect(await keysFirst(withoutKeychain)).toBe(false)
  })
  it('come first when the keychain can', async () => {
    expect(await keysFirst(withKeychain)).toBe(true)
  })
})

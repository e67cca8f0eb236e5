/**
 * The ACP Registry section when the registry cannot be reached (no network, a wrong address): it says why and what to
 * do next, in the alert a screen reader announces, and Refresh tries again.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
import { RegistryBrowser } from './renderer/components/agents/RegistryBrowser'
window.__loads = 0
const api = {
  getRegistry: async () => {
    window.__loads++
    return { ok: false, error: { kind: 'failed', message: 'Could not reach cdn.agentclientprotocol.com: getaddrinfo ENOTFOUND cdn.agentclientprotocol.com' } }
  },
  getRegistryIcon: async () => ({ ok: true, value: null }),
  getRegistrySettings: async () => ({ ok: true, value: { url: 'https://cdn.agentclientprotocol.com/registry.json', defaultUrl: 'https://cdn.agentclientprotocol.com/registry.json' } }),
  onRegistryInstallProgress: () => () => {},
}
createRoot(document.getElementById('root')).render(<RegistryBrowser api={api} onOpenAgent={() => {}} />)
`

const harness = browserHarness(entry)
const styles = ['renderer/styles/app.css', 'renderer/components/agents/registry.css'].map((file) => readFileSync(file, 'utf8')).join('\n')

describe('the registry unreachable', { timeout: 30_000 }, () => {
  it('says why, then what to do: check the network or the address, Refresh; presets and found agents work without it', async () => {
    const page = await harness.open({ styles })
    try {
      const alert = page.getByRole('alert')
      await alert.getByText(/^Could not load the registry: Could not reach/).waitFor()
      expect(await alert.innerText()).toMatch(/Check the network connection, or the registry address below, then press Refresh\./)
      await page.getByRole('button', { name: 'Refresh' }).click()
      await expect.poll(() => page.evaluate(() => (window as unknown as { __loads: number }).__loads)).toBe(2)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})

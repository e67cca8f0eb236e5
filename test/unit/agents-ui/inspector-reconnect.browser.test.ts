/**
 * The inspector after the browser transport reconnects: main ended the old connection's watch (a watch belongs to
 * the page's connection, and goes when it closes), so the panel watches again on the new one and lists anew
 * (events sent while away are gone). Over the dev preview's fake API, in Chromium; every call is recorded.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'
import { callsOf, recordedAgentsApi } from './recorded-agents-api'

const entry = `${recordedAgentsApi()}
const reconnected = new Set()
window.__reconnect = () => { for (const listener of reconnected) listener() }
const onDidReconnect = (listener) => { reconnected.add(listener); return () => reconnected.delete(listener) }
createRoot(document.getElementById('root')).render(
  <AgentsScreen api={api} onClose={() => undefined} initialAgentId="codex" initialTab="inspector" onDidReconnect={onDidReconnect} />,
)
`

const harness = browserHarness(entry)

describe('the inspector panel over a reconnecting transport', { timeout: 30_000 }, () => {
  it('watches again, and lists anew, after the connection came back', async () => {
    const page = await harness.open({ viewport: { width: 1280, height: 800 } })
    try {
      await page.getByRole('dialog', { name: 'Agents' }).waitFor()
      await expect.poll(() => callsOf(page, 'watchInspector')).toEqual([{ agentId: 'codex', watching: true }])
      const listed = (await callsOf(page, 'listInspectorMessages')).length
      await page.evaluate(() => (window as unknown as { __reconnect(): void }).__reconnect())
      await expect.poll(() => callsOf(page, 'watchInspector')).toEqual([
        { agentId: 'codex', watching: true },
        { agentId: 'codex', watching: false },
        { agentId: 'codex', watching: true },
      ])
      await expect.poll(async () => (await callsOf(page, 'listInspectorMessages')).length).toBe(listed + 1)
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})

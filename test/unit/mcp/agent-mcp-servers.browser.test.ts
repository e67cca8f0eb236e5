/**
 * An agent's "MCP servers" in a real browser (Debian's Chromium): switching to another agent never shows the
 * previous agent's list as the new one's while the new list is on its way, and an answer that comes late for an
 * agent no longer shown is dropped. The page holds each answer until the test releases it.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { AgentMcpServers } from './renderer/components/mcp/AgentMcpServers'

const lists = {
  alpha: [{ id: 'team', name: 'Team search', transport: 'http', passed: true }, { id: 'docs', name: 'Shared docs', transport: 'http', passed: true }],
  beta: [{ id: 'docs', name: 'Shared docs', transport: 'http', passed: true }],
}
const waiting = []
window.__release = (agentId) => {
  const i = waiting.findIndex((w) => w.agentId === agentId)
  if (i < 0) return false
  const [w] = waiting.splice(i, 1)
  w.resolve({ ok: true, value: { servers: lists[agentId] } })
  return true
}
const api = { listAgentMcpServers: ({ agentId }) => new Promise((resolve) => waiting.push({ agentId, resolve })) }
function App() {
  const [agentId, setAgentId] = useState('alpha')
  return (
    <>
      <button onClick={() => setAgentId(agentId === 'alpha' ? 'beta' : 'alpha')}>Switch</button>
      <dl><AgentMcpServers api={api} agentId={agentId} /></dl>
    </>
  )
}
createRoot(document.getElementById('root')).render(<App />)
`

const harness = browserHarness(entry)
/** Generous: Chromium shares two cores with the rest of the suite. */
const WAIT = { timeout: 10_000 }

describe('AgentMcpServers in Chromium', { timeout: 30_000 }, () => {
  it("shows no agent's servers as another's, while that one's list is on its way or after a late answer", async () => {
    const page = await harness.open()
    try {
      const release = (agentId: string) => page.evaluate((id) => (window as unknown as { __release(id: string): boolean }).__release(id), agentId)
      const items = page.getByRole('list', { name: 'MCP servers this agent gets' }).getByRole('listitem')
      const texts = () => items.allTextContents()
      await expect.poll(() => release('alpha'), WAIT).toBe(true)
      await expect.poll(texts, WAIT).toEqual(['Team search http', 'Shared docs http'])

      // Beta's list has not come: alpha's is not shown as beta's.
      await page.getByRole('button', { name: 'Switch' }).click()
      await page.getByText('…').waitFor(WAIT)
      expect(await items.count()).toBe(0)
      await expect.poll(() => release('beta'), WAIT).toBe(true)
      await expect.poll(texts, WAIT).toEqual(['Shared docs http'])

      // Back to alpha and away again before alpha answers: the late answer is dropped, beta's own comes.
      await page.getByRole('button', { name: 'Switch' }).click()
      await page.getByText('…').waitFor(WAIT)
      await page.getByRole('button', { name: 'Switch' }).click()
      await expect.poll(() => release('alpha'), WAIT).toBe(true)
      await expect.poll(() => release('beta'), WAIT).toBe(true)
      await expect.poll(texts, WAIT).toEqual(['Shared docs http'])
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})

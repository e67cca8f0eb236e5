/**
 * What a batch of streamed text re-renders on the session screen, in Chromium: the screen itself (its session
 * changed), not the header, whose props (title, folders, agent, turn, usage) stay the same. The header's title and
 * subtitle views were made anew at each render, so its memo never held and it rendered with every batch of a flood.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { renderCounts } from './test/support/react-renders'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { createAppStore } from './renderer/state/app-store'
import { createSessionState } from './common/session/reducer'
import { SessionScreen } from './renderer/screens/SessionScreen'

const store = createAppStore()
store.addSession(createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/home/me/project' }))
const ok = async () => ({ ok: true, value: undefined })
const api = { prompt: ok, cancel: ok, setMode: ok, setModel: ok, setConfigOption: ok, restartAgent: ok, closeSession: ok, setAutoApprove: ok, newSession: ok }
const root = createRoot(document.getElementById('root'))
flushSync(() => root.render(<SessionScreen store={store} api={api} sessionId="s" inboxSlot={null} />))
let seq = 0
window.__chunk = () => flushSync(() => store.applySessionActions({ sessionId: 's', seq: ++seq, actions: [{ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'word ' } }] }] }))
window.__renders = renderCounts
`

const harness = browserHarness(entry)

describe('the session screen under streamed text', { timeout: 30_000 }, () => {
  it('renders the screen with each batch, and not its header', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 700 } })
    try {
      const renders = () => page.evaluate(() => (window as unknown as { __renders: () => Record<string, number> }).__renders())
      const before = await renders()
      expect(before.SessionHeader).toBeGreaterThan(0)
      await page.evaluate(() => {
        for (let n = 0; n < 5; n++) (window as unknown as { __chunk: () => void }).__chunk()
      })
      const after = await renders()
      expect(after.SessionScreen! - before.SessionScreen!).toBeGreaterThanOrEqual(5)
      // Nor what the header shows (the folder's name cut in its middle, the close button), nor the session's notices.
      for (const name of ['SessionHeader', 'FolderTitle', 'CutLine', 'MiddleCut', 'CloseSessionButton', 'Toasts']) expect({ [name]: after[name] }).toEqual({ [name]: before[name] })
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})

/**
 * A part of the window that throws while it is shown (here an agent's question whose card fails on it) says so in its
 * place, in Chromium; the transcript's other rows, and the rest of the window, go on. React took the whole page down on
 * such an error: an agent's form with a field named "__proto__" blanked every session.
 */
import { describe, expect, it } from 'vitest'
import { browserHarness } from '../../support/browser-bundle'

const entry = `
import { createRoot } from 'react-dom/client'
import { applyActions, createSessionState } from './common/session/reducer'
import { defaultSeams, SessionSeamsProvider } from './renderer/components/common/seams'
import { Transcript } from './renderer/components/transcript/Transcript'

let session = createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' })
const chunk = (text) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })
session = applyActions(session, [
  { type: 'updates', updates: [chunk('Before the question.')] },
  { type: 'elicitation_requested', elicitation: { elicitationRequestId: 'el-1', agentId: 'a', agentName: 'Agent A', sessionId: 'a/s1', mode: 'form', message: 'Odd', createdAt: 0, status: 'pending' } },
  { type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'After the question.' } }] },
])
const seams = { ...defaultSeams, renderElicitation: () => { throw new Error('Objects are not valid as a React child') } }
createRoot(document.getElementById('root')).render(
  <div style={{ height: 600, display: 'flex', flexDirection: 'column' }}>
    <p>Outside the transcript</p>
    <SessionSeamsProvider value={seams}>
      <Transcript session={session} agentName="Agent A" />
    </SessionSeamsProvider>
  </div>,
)
`

const harness = browserHarness(entry)

describe('a part of the window that cannot be shown', { timeout: 30_000 }, () => {
  it('says so in its place; the other rows and the rest of the window stay', async () => {
    const page = await harness.open({ viewport: { width: 900, height: 700 } })
    try {
      const note = page.getByRole('note').filter({ hasText: 'Bosun could not show this part of the session' })
      await note.waitFor()
      expect(await note.innerText()).toContain('(Objects are not valid as a React child)')
      await page.getByText('Before the question.').waitFor()
      await page.getByText('After the question.').waitFor()
      await page.getByText('Outside the transcript').waitFor()
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})

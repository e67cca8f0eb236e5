/**
 * A turn the agent ended with "authentication required" (-32000) offers the sign-in where it says so: claude-agent-acp
 * 0.101 with a key its model API refused retried for minutes, said "Failed to authenticate. API Error: 401 …" and
 * ended the turn with -32000, and the alert under the transcript offered nothing. Rendered to static markup in Node.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'
import { CLOSED_MESSAGE, INTERRUPTED_MESSAGE, restartedMessage } from '../../../common/session/turn-stop'
import { NotSentContext, type NotSentActions } from '../../../renderer/components/transcript/not-sent'
import { Transcript } from '../../../renderer/components/transcript/Transcript'

const actions: NotSentActions = { onEdit: () => {}, onResend: () => {}, onSignIn: () => {} }

function ended(error: { message: string; code?: number; byBosun?: true }): SessionState {
  const s = createSessionState({ sessionId: 'claude/s1', acpSessionId: 's1', agentId: 'claude', protocolVersion: 1, cwd: '/tmp/p' })
  return { ...s, turn: { ...s.turn, state: 'idle', stopReason: null, error, completedTurns: 1 } }
}

const render = (session: SessionState, withActions = true) => {
  const transcript = <Transcript session={session} agentName="Claude" />
  return renderToStaticMarkup(withActions ? <NotSentContext.Provider value={actions}>{transcript}</NotSentContext.Provider> : transcript)
}

describe('a turn that ended asking for a sign-in', () => {
  it('offers Sign in… beside the error', () => {
    const html = render(ended({ message: 'Authentication required', code: -32000 }))
    expect(html).toContain('The turn ended with an error (code -32000): Authentication required')
    expect(html).toContain('>Sign in…</button>')
  })

  it('offers nothing for another error, or where the screen cannot sign in', () => {
    expect(render(ended({ message: 'Rate limited', code: 429 }))).not.toContain('Sign in…')
    expect(render(ended({ message: 'Authentication required', code: -32000 }), false)).not.toContain('Sign in…')
  })
})

describe('a turn that Bosun ended by closing (or dying) while it ran', () => {
  const withLog: NotSentActions = { ...actions, onOpenLog: () => {} }
  const renderWithLog = (session: SessionState) =>
    renderToStaticMarkup(
      <NotSentContext.Provider value={withLog}>
        <Transcript session={session} agentName="Claude" />
      </NotSentContext.Provider>,
    )
  const sent = (session: SessionState): SessionState =>
    ({ ...session, entries: [{ kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'DO_SLOW again' }] } as SessionState['entries'][number]] })

  it("does not send the person to the agent's log, which has nothing to say about it", () => {
    for (const message of [CLOSED_MESSAGE, INTERRUPTED_MESSAGE, restartedMessage('Claude')]) {
      const html = renderWithLog(sent(ended({ message, byBosun: true })))
      expect(html).toContain(message)
      expect(html).toContain('>Send again</button>')
      expect(html).toContain('You can send the message again.')
      expect(html).not.toContain('Agent’s log')
      // The same words as the agent's error are the agent's: told as its error, with its log.
      const spoofed = renderWithLog(sent(ended({ message, code: -32603 })))
      expect(spoofed).toContain(`The turn ended with an error (code -32603): ${message}`)
      expect(spoofed).toContain('>Agent’s log</button>')
    }
  })

  it('offers nothing to send again in a session that cannot go on (the composer says why): only the log', () => {
    const html = renderToStaticMarkup(
      <NotSentContext.Provider value={{ ...withLog, cannotContinue: true }}>
        <Transcript session={sent(ended({ message: 'Claude exited with code 1.' }))} agentName="Claude" />
      </NotSentContext.Provider>,
    )
    expect(html).not.toContain('>Send again</button>')
    expect(html).not.toContain('>Edit message</button>')
    expect(html).toContain('>Agent’s log</button>')
    expect(html).toContain('The agent’s log may say what went wrong.')
  })

  it("still offers the agent's log for the agent's own error", () => {
    const html = renderWithLog(sent(ended({ message: 'Claude exited with code 1.' })))
    expect(html).toContain('or read the agent’s log for what went wrong')
    expect(html).toContain('>Agent’s log</button>')
  })
})

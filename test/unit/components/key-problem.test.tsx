/**
 * An agent that says its key is missing or refused in words, not as "authentication required" (-32000), gets no Sign
 * in…: codex-acp 2.6.0 answers "Missing environment variable: FAKE_API_KEY" as -32603, OpenCode 1.18.33 passes its
 * provider's 401 on as "Internal error: Incorrect API key provided". Where the error is shown, the way on is named:
 * the agent's entry on the Agents page, where its keys are set. Rendered to static markup in Node.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { keyProblemOf } from '../../../common/acp-errors'
import { createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'
import { NotSentContext, NotSentNote, type NotSentActions } from '../../../renderer/components/transcript/not-sent'
import { Transcript } from '../../../renderer/components/transcript/Transcript'

describe('keyProblemOf', () => {
  it('reads the words real agents and model providers use for a missing or refused key', () => {
    expect(keyProblemOf('Missing environment variable: FAKE_API_KEY')).toEqual({ name: 'FAKE_API_KEY' })
    expect(keyProblemOf('Internal error: missing environment variable: `OPENAI_API_KEY`')).toEqual({ name: 'OPENAI_API_KEY' })
    expect(keyProblemOf('ANTHROPIC_API_KEY is not set')).toEqual({ name: 'ANTHROPIC_API_KEY' })
    // A name only where one is given: not the next word of the sentence.
    expect(keyProblemOf('Missing environment variable for the model provider')).toEqual({ name: null })
    expect(keyProblemOf('Internal error: Incorrect API key provided: sk-fake. You can find your API key at https://platform.openai.com/account/api-keys.')).toEqual({ name: null })
    expect(keyProblemOf('authentication_error: invalid x-api-key')).toEqual({ name: null })
    expect(keyProblemOf('API key not valid. Please pass a valid API key.')).toEqual({ name: null })
  })

  it('says nothing of other errors', () => {
    for (const message of ['Rate limited', 'Authentication required', 'The model is overloaded', 'UNIQUE constraint failed: primary key', 'Internal error', 'keyboard interrupt']) {
      expect(keyProblemOf(message)).toBeNull()
    }
  })
})

describe('where a key the agent says is missing is set', () => {
  const actions: NotSentActions = { onEdit: () => {}, onResend: () => {}, onSignIn: () => {}, onOpenLog: () => {}, onOpenAgent: () => {}, agentName: 'Codex' }
  const render = (session: SessionState, value: NotSentActions = actions) =>
    renderToStaticMarkup(
      <NotSentContext.Provider value={value}>
        <Transcript session={session} agentName="Codex" />
      </NotSentContext.Provider>,
    )
  const base = () => createSessionState({ sessionId: 'codex/s1', acpSessionId: 's1', agentId: 'codex', protocolVersion: 2, cwd: '/tmp/p' })
  const sent = { kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'hello' }] } as SessionState['entries'][number]

  it('offers the agent on the Agents page under a turn that ended so', () => {
    const s = base()
    const html = render({ ...s, entries: [sent], turn: { ...s.turn, state: 'idle', stopReason: null, error: { message: 'Missing environment variable: FAKE_API_KEY', code: -32603 }, completedTurns: 1 } })
    expect(html).toContain('The agent says FAKE_API_KEY is not set: add it to the agent on the Agents page')
    expect(html).toContain('>Open Codex on the Agents page</button>')
    expect(html).toContain('>Send again</button>')
  })

  it('offers it under a message the agent refused so, and not for another refusal', () => {
    const refused = (message: string) =>
      renderToStaticMarkup(
        <NotSentContext.Provider value={actions}>
          <NotSentNote entry={{ kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'hello' }], notSent: { message: `Internal error: ${message}`, code: -32603 } }} />
        </NotSentContext.Provider>,
      )
    const html = refused('Incorrect API key provided: sk-fake.')
    expect(html).toContain('The agent says its API key is missing or was refused: set it on the Agents page')
    expect(html).toContain('>Open Codex on the Agents page</button>')
    expect(refused('Rate limited')).not.toContain('Agents page')
  })

  it('says nothing of it where the screen cannot open the Agents page', () => {
    const s = base()
    const { onOpenAgent: _none, ...without } = actions
    const html = render({ ...s, entries: [sent], turn: { ...s.turn, state: 'idle', stopReason: null, error: { message: 'Missing environment variable: FAKE_API_KEY' }, completedTurns: 1 } }, without)
    expect(html).not.toContain('Agents page')
  })
})

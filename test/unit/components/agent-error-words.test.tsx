/**
 * An agent's JSON-RPC error said in the agent's words (ux15): OpenCode passes a missing key on as
 * `{"code":-32603,"message":"Internal error: …","data":{…}}`, which showed JSON-RPC's "Internal error: " and the raw JSON of
 * `data`. The words come first, what `data` says in words (`message`, `details`, `error.message`) as text, the rest of
 * `data` folded under "Details"; the agent's text keeps its hidden characters as markers. Where such errors show: a
 * message not sent, a turn that ended with an error, the new-session form, Check connection, a refused mode or resume.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { agentErrorWords } from '../../../common/acp-errors'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { MessageEntry, SessionAction, TurnErrorEntry } from '../../../common/session/types'
import { RpcError } from '../../../main/base/errors'
import { CheckConnection } from '../../../renderer/components/agents/CheckConnection'
import { newSessionFailure } from '../../../renderer/components/sidebar/new-session-failure'
import { NotSentNote } from '../../../renderer/components/transcript/not-sent'
import { TurnErrorMark } from '../../../renderer/components/transcript/EntryViews'
import { Transcript } from '../../../renderer/components/transcript/Transcript'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

// OpenCode 1.x with no key for its provider (the shape of its ProviderAuthError, passed on as data).
const OPENCODE_DATA = { message: 'OPENAI_API_KEY is not set for provider openai', providerID: 'openai', name: 'ProviderAuthError' }
const OPENCODE_MESSAGE = 'Internal error: Provider openai could not start'

describe('agentErrorWords', () => {
  it('drops JSON-RPC’s "Internal error: " before the agent’s words, and says data’s words as text with the rest kept as JSON', () => {
    const words = agentErrorWords(OPENCODE_MESSAGE, OPENCODE_DATA)
    expect(words.message).toBe('Provider openai could not start')
    expect(words.details).toBe('OPENAI_API_KEY is not set for provider openai')
    expect(JSON.parse(words.data!)).toEqual(OPENCODE_DATA)
  })

  it('reads data’s details, message or error.message; keeps "Internal error" when nothing follows it', () => {
    expect(agentErrorWords('Internal error', { details: 'No previous sessions found for this project.' })).toEqual({
      message: 'Internal error',
      details: 'No previous sessions found for this project.',
    })
    expect(agentErrorWords('Internal error: ', { message: 'Overloaded' })).toEqual({ message: 'Internal error: ', details: 'Overloaded' })
    const nested = agentErrorWords('Internal error: request failed', { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })
    expect(nested).toMatchObject({ message: 'request failed', details: 'Incorrect API key provided' })
    expect(JSON.parse(nested.data!)).toEqual({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })
  })

  it('data without words is only under Details; words the message already says are not said twice', () => {
    expect(agentErrorWords('Internal error: boom', { stack: 'at x', code: 'E1' })).toEqual({ message: 'boom', data: JSON.stringify({ stack: 'at x', code: 'E1' }, null, 2) })
    expect(agentErrorWords('Internal error: Overloaded', 'Overloaded')).toEqual({ message: 'Overloaded' })
    expect(agentErrorWords('Rate limited')).toEqual({ message: 'Rate limited' })
  })
})

describe('where the agent’s error shows', () => {
  it('a message not sent: the agent’s words first, data’s words as text, its JSON under a Details fold, hidden characters as markers', async () => {
    const { connection } = fakeAgentConnection({ prompt: async () => Promise.reject(new RpcError(-32603, OPENCODE_MESSAGE, { ...OPENCODE_DATA, message: `${OPENCODE_DATA.message}\u202e` })) })
    const service = sessionsOn(connection)
    const created = await service.newSession('a', '/w')
    const sessionId = created.ok ? created.value.sessionId : ''
    await service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
    const entry = service.state(sessionId)!.entries.find((e): e is MessageEntry => e.kind === 'user_message')!
    service.dispose()
    expect(entry.notSent).toMatchObject({ message: 'Provider openai could not start', details: `${OPENCODE_DATA.message}\u202e`, code: -32603 })
    const html = renderToStaticMarkup(<NotSentNote entry={entry as MessageEntry & { notSent: NonNullable<MessageEntry['notSent']> }} />)
    expect(html).not.toContain('Internal error')
    expect(html.indexOf('Provider openai could not start')).toBeLessThan(html.indexOf('OPENAI_API_KEY is not set'))
    expect(html).toMatch(/<details class="disclosure prompt-error-data"><summary>Details<\/summary>/)
    expect(html).toContain('ProviderAuthError')
    // The right-to-left override is shown, not obeyed.
    expect(html).not.toContain('\u202e')
    expect(html).toContain('perm-ctrl')
  })

  it('a turn that ended with an error (its outcome’s error, as a v2 idle state_update gives it): the words, and data’s words on the next line', async () => {
    const { connection } = fakeAgentConnection({
      prompt: async () => ({ stopReason: 'error', error: { code: -32603, message: OPENCODE_MESSAGE, data: OPENCODE_DATA } }),
    })
    const service = sessionsOn(connection)
    const created = await service.newSession('a', '/w')
    const sessionId = created.ok ? created.value.sessionId : ''
    await service.prompt(sessionId, [{ type: 'text', text: 'hello' }])
    const error = service.state(sessionId)!.turn.error
    service.dispose()
    expect(error).toMatchObject({ message: 'Provider openai could not start\nOPENAI_API_KEY is not set for provider openai', code: -32603 })
    // The rest of data, for the Details fold under the alert.
    expect(JSON.parse(error!.data!)).toEqual(OPENCODE_DATA)
  })

  it('a mode refused and a session that cannot be resumed: the words and data’s words on one line, no raw JSON', async () => {
    const refuse = () => Promise.reject(new RpcError(-32603, OPENCODE_MESSAGE, OPENCODE_DATA))
    const { connection } = fakeAgentConnection({
      handshake: { protocolVersion: 1, capabilities: { loadSession: true, resumeSession: true } },
      newSession: async () => ({ sessionId: 's1', modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] }, raw: {} }),
      setMode: refuse,
      resumeSession: refuse,
    })
    const service = sessionsOn(connection)
    const created = await service.newSession('a', '/w')
    if (!created.ok) throw new Error('no session')
    const said = 'Provider openai could not start: OPENAI_API_KEY is not set for provider openai'
    expect(await service.setMode(created.value.sessionId, 'b')).toMatchObject({ ok: false, error: { kind: 'rpc-error', message: said } })
    service.restore(createSessionState({ sessionId: 'a/s9', acpSessionId: 's9', agentId: 'a', protocolVersion: 1, cwd: '/w' }))
    expect((await service.prompt('a/s9', [{ type: 'text', text: 'hello' }])).ok).toBe(false)
    expect(service.state('a/s9')!.cannotContinue?.reason).toContain(`could not resume it (${said})`)
    service.dispose()
  })

  it('a v2 turn that ended with an error (its idle state_update): the words, data’s words on the next line, the rest under Details, in the alert and the mark', () => {
    const start = createSessionState({ sessionId: 'oc/s1', acpSessionId: 's1', agentId: 'oc', protocolVersion: 2, cwd: '/w' })
    const state = applyActions(start, [
      { type: 'local_prompt', content: [{ type: 'text', text: 'hello' }] },
      { type: 'turn_started' },
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'state_update', state: 'running' },
          { sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: -32603, message: OPENCODE_MESSAGE, data: OPENCODE_DATA } },
        ],
      },
    ] as SessionAction[])
    const words = 'Provider openai could not start\nOPENAI_API_KEY is not set for provider openai'
    expect(state.turn.error).toMatchObject({ message: words, code: -32603 })
    expect(JSON.parse(state.turn.error!.data!)).toEqual(OPENCODE_DATA)
    const mark = state.entries.find((e): e is TurnErrorEntry => e.kind === 'turn_error')!
    expect(mark).toMatchObject({ message: words, code: -32603 })
    expect(JSON.parse(mark.data!)).toEqual(OPENCODE_DATA)
    const alert = renderToStaticMarkup(<Transcript session={state} agentName="OpenCode" />)
    expect(alert).not.toContain('Internal error')
    expect(alert).toContain('<summary>Details</summary>')
    expect(alert).toContain('ProviderAuthError')
    const marked = renderToStaticMarkup(<TurnErrorMark entry={mark} />)
    expect(marked).not.toContain('Internal error')
    expect(marked).toContain('ProviderAuthError')
  })

  it('a session that did not open: the words, then data’s, the JSON for the form’s Details fold', () => {
    const failure = newSessionFailure('OpenCode', { kind: 'rpc-error', code: -32603, message: OPENCODE_MESSAGE, data: OPENCODE_DATA })
    expect(failure).toMatchObject({ message: 'Provider openai could not start: OPENAI_API_KEY is not set for provider openai', agentAtFault: true })
    expect(JSON.parse(failure.data!)).toEqual(OPENCODE_DATA)
  })

  it('Check connection: the words, data’s words, and a Details fold', () => {
    const html = renderToStaticMarkup(
      <CheckConnection
        agentName="OpenCode"
        checking={false}
        onCheck={() => undefined}
        result={{
          check: {
            ok: false,
            agentName: 'OpenCode',
            agentInfo: null,
            protocolVersion: null,
            capabilities: [],
            authMethods: [],
            durationMs: 10,
            error: { kind: 'rpc-error', ...agentErrorWords(OPENCODE_MESSAGE, OPENCODE_DATA) },
          },
        }}
      />,
    )
    expect(html).not.toContain('Internal error')
    expect(html).toContain('Provider openai could not start')
    expect(html).toContain('OPENAI_API_KEY is not set for provider openai')
    expect(html).toContain('<summary>Details</summary>')
    // The agent refused: Bosun did not give up on it (that is a timeout's words).
    expect(html).toContain('Failed after 10 ms.')
    expect(html).not.toContain('Gave up')
  })
})

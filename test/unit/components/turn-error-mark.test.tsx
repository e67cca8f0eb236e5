/**
 * A turn that ended with an error keeps a quiet mark in the transcript: hidden while the alert under the transcript
 * tells the same error, shown once the next turn starts, its message bounded.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type React from 'react'
import { AUTH_REQUIRED_CODE } from '../../../common/acp-errors'
import type { Entry, MessageEntry, SessionState, TurnErrorEntry } from '../../../common/session/types'
import { NotSentContext, TurnErrorActions, type NotSentActions } from '../../../renderer/components/transcript/not-sent'
import { TurnErrorMark } from '../../../renderer/components/transcript/EntryViews'
import { Icon } from '../../../renderer/components/common/icons'
import { errorSaidAbove, lastSentPrompt, turnErrorText, turnErrorToldBelow } from '../../../renderer/components/transcript/Transcript'
import { CLOSED_MESSAGE, restartedMessage } from '../../../common/session/turn-stop'

const textOf = (html: string) => html.replace(/<[^>]+>/g, '')
const turn = (over: Partial<SessionState['turn']>): SessionState['turn'] => ({ state: 'idle', stopReason: null, error: null, background: null, completedTurns: 1, ...over })
const mark: TurnErrorEntry = { kind: 'turn_error', id: 'turn-error#2', message: 'Rate limited', code: 429 }
const prompt: Entry = { kind: 'user_message', id: 'user#0', content: [] }

describe("a turn's error mark", () => {
  it('is told by the alert while its turn is the last one, and shown itself once a new turn started', () => {
    const ended = { turn: turn({ error: { message: 'Rate limited', code: 429 } }) }
    expect(turnErrorToldBelow(ended, mark, 0, 2)).toBe(true)
    // The next prompt (index 3) is the last one now; the running turn has no error.
    expect(turnErrorToldBelow({ turn: turn({ state: 'running' }) }, mark, 3, 2)).toBe(false)
    // The agent failed again: the old mark is above the last prompt sent, and the alert tells the new error.
    expect(turnErrorToldBelow(ended, mark, 3, 2)).toBe(false)
    expect(turnErrorToldBelow(ended, prompt, 0, 0)).toBe(false)
  })

  it('v2: stays told by the alert when the next prompt was refused (the turn, and its error, are as they were)', () => {
    const refused: Entry = { kind: 'user_message', id: 'user#3', content: [], local: true, notSent: { message: 'Busy' } }
    const entries = [prompt, { kind: 'agent_message', id: 'agent#1', content: [] } as Entry, mark, refused]
    expect(lastSentPrompt(entries)).toBe(0)
    expect(turnErrorToldBelow({ turn: turn({ error: { message: 'Rate limited', code: 429 } }) }, mark, lastSentPrompt(entries), 2)).toBe(true)
  })

  it('says the turn ended with an error on one line, with the message and code', () => {
    const html = renderToStaticMarkup(<TurnErrorMark entry={mark} />)
    expect(html).toContain('The turn ended with an error (code 429): Rate limited')
    expect(html).not.toContain('<details')
  })

  it('does not repeat an error the agent said word for word in its message just above (codex-acp v2)', () => {
    const error = 'stream disconnected before completion: An error occurred.'
    const said: Entry = { kind: 'agent_message', id: 'agent:e', content: [{ type: 'text', text: `${error}\n\n` }] }
    const answer: Entry = { kind: 'agent_message', id: 'agent:a', content: [{ type: 'text', text: 'Starting a long answer' }] }
    const errorMark: TurnErrorEntry = { kind: 'turn_error', id: 'turn-error#3', message: error, code: -32603 }
    expect(errorSaidAbove([prompt, answer, said, errorMark], 3, error)).toBe(true)
    // The live alert, told after every entry.
    expect(errorSaidAbove([prompt, answer, said], 3, error)).toBe(true)
    expect(turnErrorText(error, -32603, true)).toBe('The turn ended with an error (code -32603), as the agent says above.')
    expect(textOf(renderToStaticMarkup(<TurnErrorMark entry={errorMark} saidAbove />))).toBe('The turn ended with an error (code -32603), as the agent says above.')
    // Otherwise the message is told.
    expect(errorSaidAbove([prompt, answer, errorMark], 2, error)).toBe(false)
    expect(errorSaidAbove([prompt, said, errorMark], 2, '')).toBe(false)
    expect(errorSaidAbove([said, errorMark], 1, 'another error')).toBe(false)
    expect(turnErrorText('Rate limited', 429, false)).toBe('The turn ended with an error (code 429): Rate limited')
    // A turn Bosun ended (closed, or the person restarted the agent) failed in nothing: said in those words alone.
    expect(turnErrorText(restartedMessage('OpenCode'), null, false, true)).toBe('Interrupted: you restarted OpenCode while this turn was running.')
    // An agent whose error reads the same is still the agent's error: its words never pass as Bosun's.
    expect(turnErrorText(restartedMessage('OpenCode'), -32603, false)).toBe('The turn ended with an error (code -32603): Interrupted: you restarted OpenCode while this turn was running.')
    expect(turnErrorText(CLOSED_MESSAGE, undefined, false)).toBe(`The turn ended with an error: ${CLOSED_MESSAGE}`)
  })

  it('marks an earlier turn the person ended by restarting its agent as the live note did: their choice, not an alarm', () => {
    const restarted: TurnErrorEntry = { kind: 'turn_error', id: 'turn-error#2', message: restartedMessage('Codex'), byBosun: true }
    const html = renderToStaticMarkup(<TurnErrorMark entry={restarted} />)
    expect(html).toContain('turn-error-mark-chosen')
    expect(html).toContain(renderToStaticMarkup(<Icon name="restart" />))
    expect(textOf(html)).toBe('Interrupted: you restarted Codex while this turn was running.')
    // The agent's error in the same words stays an alert.
    const spoofed = renderToStaticMarkup(<TurnErrorMark entry={{ ...restarted, byBosun: undefined }} />)
    expect(spoofed).not.toContain('turn-error-mark-chosen')
    expect(spoofed).toContain(renderToStaticMarkup(<Icon name="alert" />))
  })

  it('does not repeat the API error claude-agent-acp v1 says as a message and again as its -32603 "Internal error: …" with data (captured from 0.101.0)', () => {
    const said: Entry = {
      kind: 'agent_message',
      id: 'agent:e',
      content: [{ type: 'text', text: 'API Error: 500 The fake model API failed (DO_APIERR): internal server error. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:8800).' }],
    }
    // The prompt's error as main tells it: the JSON-RPC message, then its data on the next line.
    const error = 'Internal error: API Error: 500 The fake model API failed (DO_APIERR): internal server error. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:8800).\n{"errorKind":"server_error"}'
    expect(errorSaidAbove([prompt, said], 2, error)).toBe(true)
    // Another error, or one that only starts like the message, is told.
    expect(errorSaidAbove([prompt, said], 2, 'Internal error: API Error: 529 Overloaded')).toBe(false)
    expect(errorSaidAbove([prompt, { ...said, content: [{ type: 'text', text: 'API Error' }] } as Entry], 2, error)).toBe(false)
  })

  it('puts a long or multi-line message in a disclosure', () => {
    const html = renderToStaticMarkup(<TurnErrorMark entry={{ ...mark, message: 'API Error: 429\n{"type":"error"}' }} />)
    expect(html).toMatch(/<summary>The turn ended with an error \(code 429\): API Error: 429<\/summary>/)
    expect(html).toContain('{&quot;type&quot;:&quot;error&quot;}')
  })
})

describe('what the alert of a turn that ended with an error offers', () => {
  const said: Entry = { kind: 'user_message', id: 'user#0', content: [{ type: 'text', text: 'explain the parser' }] }
  const none = () => undefined
  const actions: NotSentActions = { onEdit: none, onResend: none, onOpenLog: none, onSignIn: none }
  const offered = (element: React.ReactElement, value: NotSentActions | null = actions) =>
    textOf(renderToStaticMarkup(<NotSentContext.Provider value={value}>{element}</NotSentContext.Provider>))

  it('says what to do next, with the message to send again, to edit, and the agent’s log', () => {
    expect(offered(<TurnErrorActions lastMessage={said as MessageEntry} code={429} message="Rate limited" />)).toBe(
      'You can send the message again, or read the agent’s log for what went wrong.Send againEdit messageAgent’s log',
    )
  })

  it('offers to sign in first when the agent asks for it', () => {
    expect(offered(<TurnErrorActions lastMessage={said as MessageEntry} code={AUTH_REQUIRED_CODE} message="Authentication required" />)).toBe(
      'Sign in, then send the message again.Sign in…Send againEdit messageAgent’s log',
    )
  })

  it('offers the log alone when there is no message to send again, and nothing outside a session screen', () => {
    expect(offered(<TurnErrorActions lastMessage={null} code={-32603} message="Internal error" />)).toBe('The agent’s log may say what went wrong.Agent’s log')
    expect(offered(<TurnErrorActions lastMessage={said as MessageEntry} code={429} message="Rate limited" />, null)).toBe('')
  })
})

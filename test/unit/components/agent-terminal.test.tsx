/**
 * v2 agent-owned terminals on the tool card and the background-work indicator, rendered to static markup:
 * Cancel only while the terminal advertises `capabilities.cancel` (E16), "Cancelling…" until the exit status,
 * a cancelled terminal shown neutrally, unknown fields and unknown work shown generically.
 */
import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionState, TerminalView, ToolCallEntry } from '../../../common/session/types'
import { BackgroundWork } from '../../../renderer/components/background/BackgroundWork'
import { TerminalActionsContext } from '../../../renderer/components/transcript/terminal-actions'
import { exitText, TerminalOutput } from '../../../renderer/components/transcript/TerminalOutput'
import { ToolCallCard } from '../../../renderer/components/transcript/ToolCallCard'

const actions = { cancel: async () => true }
const render = (element: ReactElement, withActions = true) =>
  renderToStaticMarkup(withActions ? <TerminalActionsContext.Provider value={actions}>{element}</TerminalActionsContext.Provider> : element)
const textOf = (html: string) => html.replace(/<[^>]+>/g, '')
const b64 = (text: string) => Buffer.from(text).toString('base64')

function session(...updates: Record<string, unknown>[]): SessionState {
  const base = createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 2, cwd: '/w' })
  return applyActions(base, [{ type: 'updates', updates: updates as { sessionUpdate: string }[] }])
}
const terminal = (...fields: Record<string, unknown>[]): TerminalView =>
  session(...fields.map((f) => ({ sessionUpdate: 'terminal_update', terminalId: 'dev', ...f }))).terminals.dev!

describe('an agent terminal on its card', () => {
  it('offers Cancel only while capabilities.cancel is advertised, and only where Bosun can ask main', () => {
    const cancellable = terminal({ command: 'npm run dev', output: { data: b64('ready\n') }, capabilities: { cancel: {} } })
    const html = render(<TerminalOutput terminalId="dev" terminal={cancellable} />)
    expect(html).toContain('aria-label="Cancel npm run dev"')
    expect(textOf(html)).toContain('running')
    // No context (a session opened from the history, dev fixtures): nothing to click.
    expect(render(<TerminalOutput terminalId="dev" terminal={cancellable} />, false)).not.toContain('Cancel')
    // Never advertised, withdrawn with null, replaced without cancel.
    for (const t of [
      terminal({ command: 'npm run dev' }),
      terminal({ command: 'npm run dev', capabilities: { cancel: {} } }, { capabilities: null }),
      terminal({ command: 'npm run dev', capabilities: { cancel: {} } }, { capabilities: {} }),
    ]) {
      expect(render(<TerminalOutput terminalId="dev" terminal={t} />)).not.toContain('Cancel')
    }
  })

  it('says Cancelling… until the exit status arrives, then cancelled (not an error)', () => {
    let state = session({ sessionUpdate: 'terminal_update', terminalId: 'dev', command: 'npm run dev', capabilities: { cancel: {} } })
    state = applyActions(state, [{ type: 'terminal_cancel_requested', terminalId: 'dev' }])
    const cancelling = render(<TerminalOutput terminalId="dev" terminal={state.terminals.dev} />)
    expect(cancelling).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Cancelling npm run dev"/)
    expect(textOf(cancelling)).toContain('stopping')
    state = applyActions(state, [{ type: 'updates', updates: [{ sessionUpdate: 'terminal_update', terminalId: 'dev', exitStatus: { signal: 'SIGTERM' }, capabilities: null }] }])
    const stopped = render(<TerminalOutput terminalId="dev" terminal={state.terminals.dev} />)
    expect(textOf(stopped)).toContain('cancelled · signal SIGTERM')
    expect(stopped).not.toContain('badge-danger')
    expect(stopped).not.toContain('<button')
  })

  it('after the deadline: stop not confirmed, Cancel offered again; once the agent is gone: agent stopped, nothing to click', () => {
    let state = session({ sessionUpdate: 'terminal_update', terminalId: 'dev', command: 'npm run dev', capabilities: { cancel: {} } })
    state = applyActions(state, [{ type: 'terminal_cancel_requested', terminalId: 'dev' }, { type: 'terminal_cancel_unconfirmed', terminalId: 'dev' }])
    const unconfirmed = render(<TerminalOutput terminalId="dev" terminal={state.terminals.dev} />)
    expect(textOf(unconfirmed)).toContain('stop not confirmed')
    expect(textOf(unconfirmed)).toContain('has not reported that this stopped')
    expect(unconfirmed).toMatch(/<button[^>]*aria-label="Cancel npm run dev"/)
    expect(unconfirmed).not.toMatch(/<button[^>]*disabled=""/)
    state = applyActions(state, [{ type: 'terminal_cancel_requested', terminalId: 'dev' }, { type: 'agent_gone' }])
    const gone = render(<TerminalOutput terminalId="dev" terminal={state.terminals.dev} />)
    expect(textOf(gone)).toContain('agent stopped')
    expect(textOf(gone)).not.toContain('stopping')
    expect(gone).not.toContain('<button')
  })

  it('exit statuses in words; unknown fields shown generically; dropped output said', () => {
    expect(exitText({ exitCode: 0 })).toBe('exit 0')
    expect(exitText({ exitCode: -1073741510, signal: null })).toBe('exit -1073741510')
    expect(exitText({ exitCode: 130, signal: 'SIGINT' })).toBe('exit 130 (SIGINT)')
    expect(exitText({ signal: 'SIGKILL' })).toBe('signal SIGKILL')
    expect(exitText({})).toBe('exited')
    const html = render(<TerminalOutput terminalId="dev" terminal={{ ...terminal({ zz_state: 'warm' }), truncated: true }} />)
    expect(textOf(html)).toContain('Other terminal fields')
    expect(textOf(html)).toContain('Earlier output was dropped')
    const exitOnly = render(<TerminalOutput terminalId="dev" terminal={terminal({ exitStatus: { exitCode: 1, coreDumped: true } })} />)
    expect(textOf(exitOnly)).toContain('Other terminal fields')
    expect(textOf(exitOnly)).toContain('coreDumped')
    expect(textOf(render(<TerminalOutput terminalId="dev" terminal={terminal({ exitStatus: { exitCode: 1, _meta: { a: 1 } } })} />))).not.toContain('Other terminal fields')
  })
})

describe('the background-work indicator', () => {
  const idle = (background: unknown, ...before: Record<string, unknown>[]) =>
    session(...before, { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background })

  it('is absent when nothing runs or the agent does not report background work', () => {
    for (const background of [null, [], undefined, 'junk']) expect(render(<BackgroundWork session={idle(background)} />)).toBe('')
    const exited = idle([{ type: 'terminal', terminalId: 'dev' }], { sessionUpdate: 'terminal_update', terminalId: 'dev', exitStatus: { exitCode: 0 } })
    expect(render(<BackgroundWork session={exited} />)).toBe('')
  })

  it('names each running item: terminals by command (with Cancel where offered), tool calls by title, unknown work generically', () => {
    const state = idle(
      [{ type: 'terminal', terminalId: 'dev' }, { type: 'terminal', terminalId: 'logs' }, { type: 'tool_call', toolCallId: 'w' }, { type: '_acme_cron', every: '5m' }, { type: 'terminal' }],
      { sessionUpdate: 'terminal_update', terminalId: 'dev', command: 'npm run dev', capabilities: { cancel: {} } },
      { sessionUpdate: 'terminal_update', terminalId: 'logs', command: 'tail -f log' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'w', title: 'Watch files', status: 'in_progress' },
    )
    const html = render(<BackgroundWork session={state} />)
    const text = textOf(html)
    expect(text).toContain('5 tasks still running in the background')
    expect(text).toContain('npm run dev')
    expect(text).toContain('tail -f log')
    expect(text).toContain('Watch files')
    expect(text).toContain('_acme_cron')
    expect(text).toContain('A terminal')
    expect(html.match(/aria-label="Cancel [^"]*"/g)).toEqual(['aria-label="Cancel npm run dev"'])
  })

  it('offers Show for an item with a card (the tool call, or the tool call that shows the terminal), and only with somewhere to show it', () => {
    const state = idle(
      [{ type: 'terminal', terminalId: 'dev' }, { type: 'terminal', terminalId: 'logs' }, { type: 'tool_call', toolCallId: 'w' }, { type: 'tool_call', toolCallId: 'never-seen' }],
      { sessionUpdate: 'tool_call_update', toolCallId: 'run-dev', title: 'npm run dev', status: 'completed', content: [{ type: 'terminal', terminalId: 'dev' }] },
      { sessionUpdate: 'terminal_update', terminalId: 'dev', command: 'npm run dev' },
      { sessionUpdate: 'terminal_update', terminalId: 'logs', command: 'tail -f log' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'w', title: 'Watch files', status: 'in_progress' },
    )
    const shows = (html: string) => html.match(/aria-label="Show [^"]*"/g)
    expect(shows(render(<BackgroundWork session={state} onShowEntry={() => {}} />))).toEqual(['aria-label="Show npm run dev in the transcript"', 'aria-label="Show Watch files in the transcript"'])
    expect(shows(render(<BackgroundWork session={state} />))).toBeNull()
  })
})

describe('a terminal Bosun runs for a v1 agent (terminal/create) on its card', () => {
  const withKill = { cancel: async () => true, kill: async () => true }
  const renderV1 = (t: TerminalView | undefined, value: typeof withKill | typeof actions = withKill) =>
    renderToStaticMarkup(
      <TerminalActionsContext.Provider value={value}>
        <TerminalOutput terminalId="term-1" terminal={t} agentTerminals={false} />
      </TerminalActionsContext.Provider>,
    )
  const v1 = (...updates: Record<string, unknown>[]) =>
    applyActions(
      createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 1, cwd: '/w' }),
      updates.map((u) => ({ type: 'client_terminal' as const, update: { sessionUpdate: 'terminal_update' as const, terminalId: 'term-1', ...u } })),
    )

  it('offers Kill of its own while it runs, says so once killed (not an error), and nothing once it ended', () => {
    let state = v1({ command: 'npm test', cwd: '/w' })
    const running = renderV1(state.terminals['term-1'])
    expect(running).toContain('aria-label="Kill npm test"')
    // Without a way to ask main (history, fixtures), nothing to click.
    expect(renderV1(state.terminals['term-1'], actions)).not.toContain('<button')
    state = applyActions(state, [{ type: 'terminal_cancel_requested', terminalId: 'term-1' }])
    const stopping = renderV1(state.terminals['term-1'])
    expect(textOf(stopping)).toContain('stopping')
    expect(stopping).not.toContain('<button')
    state = applyActions(state, [{ type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 'term-1', exitStatus: { exitCode: null, signal: 'SIGTERM' } } }])
    const killed = renderV1(state.terminals['term-1'])
    expect(textOf(killed)).toContain('killed · signal SIGTERM')
    expect(killed).not.toContain('badge-danger')
    expect(renderV1(v1({ command: 'npm test' }, { exitStatus: { exitCode: 0, signal: null } }).terminals['term-1'])).not.toContain('<button')
  })

  it('still running once the turn ended (a dev server the agent left), it is listed as background work, with its Kill', () => {
    const strip = (state: SessionState) =>
      renderToStaticMarkup(
        <TerminalActionsContext.Provider value={withKill}>
          <BackgroundWork session={state} />
        </TerminalActionsContext.Provider>,
      )
    const started = applyActions(v1({ command: 'npm run dev', cwd: '/w' }), [{ type: 'turn_started' }])
    // While the turn runs, the card is where it is at work.
    expect(strip(started)).toBe('')
    const ended = applyActions(started, [{ type: 'turn_ended', stopReason: 'end_turn' }])
    const html = strip(ended)
    expect(textOf(html)).toContain('1 task still running in the background')
    expect(textOf(html)).toContain('npm run dev')
    expect(html.match(/aria-label="(Kill|Cancel) [^"]*"/g)).toEqual(['aria-label="Kill npm run dev"'])
    // Exited, or its agent gone: nothing runs.
    const exited = applyActions(ended, [{ type: 'client_terminal', update: { sessionUpdate: 'terminal_update', terminalId: 'term-1', exitStatus: { exitCode: 0, signal: null } } }])
    expect(strip(exited)).toBe('')
  })
})

describe('a command the agent ran on after Stop (codex-acp)', () => {
  const cmd = 'for i in $(seq 1 40); do echo tick $i; sleep 1; done'
  // As codex-acp 2.6 sent it: the command, the Stop answered at once with an idle `cancelled`, the output going on.
  const ranOn = () => {
    let state = session(
      { sessionUpdate: 'state_update', state: 'running' },
      { sessionUpdate: 'terminal_update', terminalId: 'call_1', command: cmd },
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', kind: 'execute', title: cmd, status: 'in_progress', content: [{ type: 'terminal', terminalId: 'call_1' }] },
      { sessionUpdate: 'terminal_output_chunk', terminalId: 'call_1', data: b64('tick 1\n') },
    )
    state = applyActions(state, [{ type: 'cancel_requested' }])
    return applyActions(state, [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' },
          { sessionUpdate: 'terminal_output_chunk', terminalId: 'call_1', data: b64('tick 2\n') },
        ],
      },
    ])
  }
  const card = (state: SessionState) => {
    const entry = state.entries.find((e) => e.kind === 'tool_call')!
    return render(<ToolCallCard entry={entry as ToolCallEntry} permissions={{}} terminals={state.terminals} />)
  }
  const strip = (state: SessionState) =>
    renderToStaticMarkup(
      <TerminalActionsContext.Provider value={{ cancel: async () => true, kill: async () => true }}>
        <BackgroundWork session={state} />
      </TerminalActionsContext.Provider>,
    )

  it('the card says it runs on after Stop, not Cancelled, and the strip lists it without a Kill Bosun cannot do', () => {
    const state = ranOn()
    const text = textOf(card(state))
    expect(text).toContain('Running after Stop')
    expect(text).not.toContain('Cancelled')
    expect(text).toContain('The agent did not stop this command when you pressed Stop: it is still running, and only the agent can stop it.')
    const html = strip(state)
    expect(textOf(html)).toContain('1 task still running in the background')
    expect(textOf(html)).toContain('running after Stop')
    expect(html).not.toContain('aria-label="Kill')
  })

  it('once the agent reports it completed: Completed, said to have run on, and nothing in the strip', () => {
    const done = applyActions(ranOn(), [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'terminal_update', terminalId: 'call_1', exitStatus: { exitCode: 0, signal: null } },
          { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed' },
        ],
      },
    ])
    const text = textOf(card(done))
    expect(text).toContain('Completed')
    expect(text).toContain('The agent did not stop this command when you pressed Stop: it ran on after the turn ended.')
    expect(strip(done)).toBe('')
  })
})

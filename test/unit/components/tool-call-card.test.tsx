/**
 * The tool-call card with the real permission and elicitation components behind its seams (as
 * `createWiredSeams` wires them in the app), rendered to static markup in Node.
 */
import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BosunApi } from '../../../common/contract'
import { defaultSeams, SessionSeamsProvider } from '../../../renderer/components/common/seams'
import { VisibleText } from '../../../renderer/components/permissions/VisibleText'
import { cardName, titleForDisplay, ToolCallCard } from '../../../renderer/components/transcript/ToolCallCard'
import { EntryRow, inEndedTurn } from '../../../renderer/components/transcript/Transcript'
import { createWiredSeams } from '../../../renderer/screens/wiring'
import { loadElicitationCard } from '../../../renderer/components/elicitation/LazyElicitationCard'
import type { ElicitationView, PermissionRequestView, ToolCallEntry } from '../../../common/session/types'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { agentTerminalCall } from '../state/helpers'

/** Every call answers ok; nothing is called while rendering to markup. */
const api = new Proxy({}, { get: () => async () => ({ ok: true, value: undefined }) }) as BosunApi
const wired = { ...defaultSeams, ...createWiredSeams(api) }
// The app loads the elicitation card with the first one shown; static markup cannot wait for it.
beforeAll(async () => {
  await loadElicitationCard()
})
const render = (element: ReactElement) => renderToStaticMarkup(<SessionSeamsProvider value={wired}>{element}</SessionSeamsProvider>)

/** The markup's text, tags dropped (entities are left as they are). */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '')

const card = (overrides: Partial<ToolCallEntry> = {}): ToolCallEntry => ({
  kind: 'tool_call',
  id: 'tool:c1',
  toolCallId: 'c1',
  title: 'Run a script',
  toolKind: 'execute',
  status: 'pending',
  content: [],
  locations: [],
  permissionIds: [],
  elicitationIds: [],
  ...overrides,
})

const request = (overrides: Partial<PermissionRequestView> = {}): PermissionRequestView => ({
  requestId: 'a#1:n:1',
  agentId: 'a',
  agentName: 'Claude',
  sessionId: 's',
  title: 'Run a shell command?',
  subject: { type: 'tool_call', toolCallId: 'c1' },
  toolCallId: 'c1',
  options: [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
  createdAt: 1,
  status: 'pending',
  ...overrides,
})

describe('ToolCallCard: permission requests', () => {
  it('a command subject with a toolCallId shows its command and folder on the card, hidden characters revealed', () => {
    const commandRequest = request({ subject: { type: 'command', command: 'ls \u202E;rm -rf ~', cwd: '/home/u/pro\u200Bj', toolCallId: 'c1' } })
    const html = render(<ToolCallCard entry={card({ permissionIds: [commandRequest.requestId] })} permissions={{ [commandRequest.requestId]: commandRequest }} terminals={{}} />)
    expect(html).toMatch(/role="alertdialog"/)
    expect(html).toContain('Command')
    expect(html).toContain(';rm -rf ~')
    expect(html).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(html).not.toContain('\u202E')
    expect(html).toContain('In folder')
    expect(html).toContain('/home/u/pro')
    expect(html).toContain('U+200B ZERO WIDTH SPACE')
    expect(html).not.toContain('\u200B')
    expect(html).toContain('hidden or direction-changing characters')
  })

  it('a tool_call subject on its card does not repeat the card (no subject block)', () => {
    const r = request()
    const html = render(<ToolCallCard entry={card({ permissionIds: [r.requestId] })} permissions={{ [r.requestId]: r }} terminals={{}} />)
    expect(html).toMatch(/role="alertdialog"/)
    expect(html).not.toContain('perm-subject')
  })

  it('a terminal announced with a tool call that waits for approval is not started, not running; once allowed it runs', () => {
    // claude-agent-acp: terminal_update (command), then the pending tool call naming it, then the request.
    const r = request()
    const terminals = { t1: { terminalId: 't1', command: 'make', output: '' } }
    const entry = card({ status: 'pending', rawInput: { command: 'make' }, content: [{ type: 'terminal', terminalId: 't1' }], permissionIds: [r.requestId] })
    const waiting = textOf(render(<ToolCallCard entry={entry} permissions={{ [r.requestId]: r }} terminals={terminals} />))
    expect(waiting).toContain('not started')
    expect(waiting).toContain('Runs once you allow it')
    expect(waiting).not.toContain('running')
    const allowed = { ...r, status: 'answered' as const, resolution: { by: 'person' as const, optionId: 'allow', optionKind: 'allow_once', at: 2 } }
    const running = textOf(render(<ToolCallCard entry={entry} permissions={{ [r.requestId]: allowed }} terminals={terminals} />))
    expect(running).toContain('running')
    expect(running).not.toContain('not started')
  })

  it('a dismissed request says so, never "Allowed by you"', () => {
    const r = request({ status: 'cancelled', resolution: { by: 'person', note: 'Dismissed', at: 2 } })
    const html = render(<ToolCallCard entry={card({ permissionIds: [r.requestId] })} permissions={{ [r.requestId]: r }} terminals={{}} />)
    expect(html).not.toMatch(/role="alertdialog"/)
    expect(html).toContain('You dismissed this request.')
    expect(html).not.toContain('Allowed')
  })

  it('requests that went away with the agent or the turn leave their note on the card', () => {
    const gone = request({ requestId: 'g', status: 'gone', resolution: { by: 'agent-exit', note: 'The agent exited with code 3.', at: 2 } })
    const cancelled = request({ requestId: 'k', status: 'cancelled', resolution: { by: 'cancel', note: 'The turn was cancelled.', at: 3 } })
    const withdrawn = request({ requestId: 'w', status: 'cancelled', resolution: { by: 'agent-cancel', at: 4 } })
    const answered = request({ requestId: 'y', status: 'answered', resolution: { by: 'person', optionId: 'allow', optionKind: 'allow_once', at: 5 } })
    const entry = card({ permissionIds: ['g', 'k', 'w', 'y'], decidedBy: { kind: 'person', label: 'Allow once', optionKind: 'allow_once' } })
    const html = render(<ToolCallCard entry={entry} permissions={{ g: gone, k: cancelled, w: withdrawn, y: answered }} terminals={{}} />)
    const footer = /<footer[^>]*>(.*)<\/footer>/s.exec(html)?.[1] ?? ''
    expect([...footer.matchAll(/<p class="tool-note">([^<]*)<\/p>/g)].map((m) => m[1])).toEqual([
      'Allowed by you (Allow once)',
      'Request not answered. The agent exited with code 3.',
      'Request not answered. The turn was cancelled.',
      'Request not answered. The agent withdrew the request.',
    ])
    expect(html).not.toMatch(/role="alertdialog"/)
  })
})

describe('ToolCallCard: what the tool call does', () => {
  it('shows an execute tool call’s command from its raw input, revealed, outside the collapsed raw JSON', () => {
    const full = render(<ToolCallCard entry={card({ rawInput: { command: 'echo hi\u202E\nrm -rf /' } })} permissions={{}} terminals={{}} />)
    // The raw JSON stays available (collapsed, below); the command is shown before it.
    const [html = '', raw = ''] = full.split('<details')
    expect(raw).toContain('Raw input')
    expect(html).toContain('aria-label="Command"')
    expect(html).toContain('echo hi')
    expect(html).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(html).toContain('rm -rf /')
    expect(html).not.toContain('\u202E')
    // One line break per line feed, after its marker.
    expect(html.match(/\n/g)).toHaveLength(1)
    expect(html).toContain('hidden or direction-changing characters')
  })

  it('an argv command is joined; no command block without a command', () => {
    expect(render(<ToolCallCard entry={card({ rawInput: { cmd: ['git', 'push', 'origin'] } })} permissions={{}} terminals={{}} />)).toContain('git push origin')
    expect(render(<ToolCallCard entry={card({ rawInput: { url: 'https://example.com' } })} permissions={{}} terminals={{}} />)).not.toContain('tool-command')
  })

  it('a terminal running the command the card already shows does not repeat it; another command is shown', () => {
    // The agent's own terminal (v2 terminal_update) names the command its tool call's raw input has.
    const entry = card({ status: 'completed', rawInput: { command: 'npm test' }, content: [{ type: 'terminal', terminalId: 't1' }] })
    // Before the (collapsed) raw input, which has it too.
    const same = textOf(render(<ToolCallCard entry={entry} permissions={{}} terminals={{ t1: { terminalId: 't1', command: 'npm test', output: '', exitStatus: { exitCode: 0 } } }} />).split('<details')[0]!)
    expect(same.match(/npm test/g)).toHaveLength(1)
    expect(same).toContain('Output')
    const other = textOf(render(<ToolCallCard entry={entry} permissions={{}} terminals={{ t1: { terminalId: 't1', command: 'npm run lint', output: '', exitStatus: { exitCode: 0 } } }} />))
    expect(other).toContain('$ npm run lint')
  })

  it('a terminal Bosun never ran shows no output: on v1 it will get none (the agent shows its own only on v2)', () => {
    // claude-agent-acp names its Bash tool call's id as a terminal (for a client with its terminal_output extension).
    const entry = card({ status: 'completed', rawInput: { command: 'ls' }, content: [{ type: 'terminal', terminalId: 'toolu_1' }] })
    const row = (protocolVersion: 1 | 2) =>
      textOf(render(<EntryRow entry={entry} session={{ permissions: {}, terminals: {}, elicitations: {}, protocolVersion }} agentName="Claude" />))
    const v1 = row(1)
    expect(v1).toContain('Terminal toolu_1')
    expect(v1).toContain('No output: Bosun did not run this terminal')
    expect(v1).not.toContain('shown by the agent')
    expect(row(2)).toContain('Output is shown by the agent')
  })

  it('a v1 agent\'s own terminal (`_meta` terminal extension, codex-acp) shows its output; one its call ended without an exit is not running', () => {
    const started = agentTerminalCall
    const row = (...later: Record<string, unknown>[]) => {
      const base = createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 1, cwd: '/w' })
      const state = applyActions(base, [{ type: 'updates', updates: [started, ...later] as { sessionUpdate: string }[] }])
      return textOf(render(<EntryRow entry={state.entries[0]!} session={state} agentName="Codex" />))
    }
    const running = row()
    expect(running).toContain('running')
    expect(running).toContain('No output yet')
    expect(running).not.toContain('Bosun did not run')
    const done = row({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', _meta: { terminal_output_delta: { terminal_id: 'call_1', data: 'a.txt\n' }, terminal_exit: { terminal_id: 'call_1', exit_code: 0, signal: null } } })
    expect(done).toContain('exit 0')
    expect(done).toContain('Output')
    expect(done).not.toContain('$ ls -la') // the card shows the command already
    expect(done).not.toContain('No output') // the output itself is drawn by xterm, in the page
    // Rejected: codex-acp fails the call and never reports an exit.
    const rejected = row({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'failed' })
    expect(rejected).not.toContain('running')
    expect(rejected).toContain('No output')
    expect(rejected).not.toContain('No output yet')
    // Stopped: codex-acp marks the call cancelled (not a status ACP lists), or leaves it in progress as its turn ends.
    expect(row({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'cancelled' })).not.toContain('running')
    const base1 = createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    const inProgress = applyActions(base1, [{ type: 'updates', updates: [started] as { sessionUpdate: string }[] }])
    expect(textOf(render(<EntryRow entry={inProgress.entries[0]!} session={inProgress} agentName="Codex" turnEnded />))).not.toContain('running')
    // Reopened from the history (the agent is gone): still not a terminal the agent stopped.
    const base = createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 1, cwd: '/w' })
    const reopened = applyActions(base, [{ type: 'updates', updates: [started, { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'failed' }] as { sessionUpdate: string }[] }, { type: 'agent_gone' }])
    expect(textOf(render(<EntryRow entry={reopened.entries[0]!} session={reopened} agentName="Codex" />))).not.toContain('agent stopped')
  })

  it('an agent\'s own terminal of a rejected call that reports an exit with no code says it did not run (claude-agent-acp), not "exited"', () => {
    const terminal = { terminalId: 't1', agentRun: true as const, command: 'rm -rf build', output: 'User refused permission to run tool', exitStatus: { exitCode: null, signal: null } }
    const entry = (optionKind: string) =>
      card({ status: 'failed', content: [{ type: 'terminal', terminalId: 't1' }], rawInput: { command: 'rm -rf build' }, decidedBy: { kind: 'person', label: 'No', optionKind } })
    const rejected = textOf(render(<ToolCallCard entry={entry('reject_once')} permissions={{}} terminals={{ t1: terminal }} />))
    expect(rejected).toContain('not run')
    expect(rejected).not.toContain('exited')
    // Allowed, the same exit is what the agent reported.
    expect(textOf(render(<ToolCallCard entry={entry('allow_once')} permissions={{}} terminals={{ t1: terminal }} />))).toContain('exited')
  })

  it('a command whose request ended unanswered (the agent restarted while it asked) says "not run", not "agent stopped" (claude-agent-acp 0.101)', () => {
    const gone = request({ status: 'gone', resolution: { by: 'agent-exit', at: 2 } })
    const terminal = { terminalId: 't1', command: 'touch made-by-agent.txt && echo made a file', output: '', agentGone: true }
    const html = (permissions: Record<string, PermissionRequestView>, t: typeof terminal) =>
      render(<ToolCallCard entry={card({ status: 'cancelled', permissionIds: Object.keys(permissions), content: [{ type: 'terminal', terminalId: 't1' }] })} permissions={permissions} terminals={{ t1: t }} />)
    const unanswered = html({ [gone.requestId]: gone }, terminal)
    expect(unanswered).toMatch(/class="badge badge-muted" role="status">not run</)
    expect(textOf(unanswered)).not.toContain('agent stopped')
    expect(textOf(unanswered)).toContain('Request not answered.')
    // Allowed, or with output of its own: it ran, and the agent stopped before it said how it ended.
    const allowed = request({ status: 'answered', resolution: { by: 'person', optionId: 'allow', optionKind: 'allow_once', at: 2 } })
    expect(textOf(html({ [allowed.requestId]: allowed }, terminal))).toContain('agent stopped')
    expect(textOf(html({ [gone.requestId]: gone }, { ...terminal, output: 'made a file\n' }))).toContain('agent stopped')
  })

  it('a terminal of a cancelled call that ended by a signal says it was stopped, muted, not a red failure (Bosun kills the turn\'s commands at Stop)', () => {
    const terminal = { terminalId: 't1', command: 'sleep 300', output: 'tick 1\n', exitStatus: { exitCode: null, signal: 'SIGTERM' } }
    const html = (status: string) => render(<ToolCallCard entry={card({ status, content: [{ type: 'terminal', terminalId: 't1' }] })} permissions={{}} terminals={{ t1: terminal }} />)
    expect(html('cancelled')).toMatch(/class="badge badge-muted" role="status">stopped · signal SIGTERM</)
    expect(html('failed')).toMatch(/class="badge badge-danger" role="status">signal SIGTERM</)
  })

  it('an agent\'s own terminal of a stopped call that reports an exit with neither code nor signal says "stopped" (claude-agent-acp at Stop), not "exited"', () => {
    const terminal = { terminalId: 't1', agentRun: true as const, command: 'seq 30', output: 'The user doesn\'t want to proceed with this tool use.', exitStatus: { exitCode: null, signal: null } }
    const html = (status: string) => render(<ToolCallCard entry={card({ status, content: [{ type: 'terminal', terminalId: 't1' }] })} permissions={{}} terminals={{ t1: terminal }} />)
    expect(html('cancelled')).toMatch(/class="badge badge-muted" role="status">stopped</)
    expect(html('completed')).toMatch(/role="status">exited</)
  })

  it('claude-agent-acp 0.101 speaking v2: its note at a Stop, sent as the terminal\'s output with an empty exit status, is folded too, and the terminal says stopped', () => {
    // Captured from claude-agent-acp 0.101.0 (protocol v2) stopped during a Bash call (/tmp/agents14/wire-claude-a.jsonl).
    const note =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed. Correction to the text above: this call was stopped while running, not refused before it ran. It may have run in part or in full, and its changes may have been written. No permission prompt was involved. Work it started elsewhere (a remote command, a background process) may still be running, so check before starting the same work again. The instruction to stop and wait still stands."
    const command = 'for i in $(seq 1 40); do echo tick $i; sleep 1; done'
    const base = createSessionState({ sessionId: 'a/s', agentId: 'a', protocolVersion: 2, cwd: '/w' })
    const state = applyActions(base, [
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'state_update', state: 'running', background: [] },
          { sessionUpdate: 'terminal_update', terminalId: 'toolu_1' },
          { toolCallId: 'toolu_1', name: 'Bash', rawInput: {}, status: 'pending', title: 'Terminal', kind: 'execute', content: [{ type: 'terminal', terminalId: 'toolu_1' }], sessionUpdate: 'tool_call_update' },
          { sessionUpdate: 'terminal_update', terminalId: 'toolu_1', command },
          { toolCallId: 'toolu_1', rawInput: { command }, title: command, sessionUpdate: 'tool_call_update' },
          { toolCallId: 'toolu_1', status: 'in_progress', sessionUpdate: 'tool_call_update' },
        ] as unknown as { sessionUpdate: string }[],
      },
      { type: 'cancel_requested' },
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'terminal_update', terminalId: 'toolu_1', output: { data: Buffer.from(note).toString('base64') } },
          { sessionUpdate: 'terminal_update', terminalId: 'toolu_1', exitStatus: {} },
          { toolCallId: 'toolu_1', status: 'cancelled', _meta: { claudeCode: { nonExecutionKind: 'user-rejected' } }, sessionUpdate: 'tool_call_update' },
          { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled', background: [] },
        ] as unknown as { sessionUpdate: string }[],
      },
    ])
    const html = render(<EntryRow entry={state.entries.find((e) => e.kind === 'tool_call')!} session={state} agentName="Claude Code" turnEnded />)
    expect(textOf(html)).toContain('No output. Stopped by you.')
    expect(html).toMatch(/<summary>What the agent told its model<\/summary>/)
    expect(html).toMatch(/class="badge badge-muted" role="status">stopped</)
    expect(textOf(html)).not.toContain('exited')
  })

  it('claude-agent-acp\'s note to its model at a Stop is folded under "What the agent told its model", not shown as the output or the call\'s words', () => {
    // Captured: /tmp/agents11/claude-cancel-minute.jsonl (Stop during Bash, and during a permission request).
    const note = "The user doesn't want to proceed with this tool use. The tool use was rejected. STOP what you are doing and wait for the user to tell you how to proceed."
    const terminal = (output: string) => ({ terminalId: 't1', agentRun: true as const, command: 'seq 30', output, exitStatus: { exitCode: null, signal: null } })
    const bash = (status: string, output: string) => render(<ToolCallCard entry={card({ status, content: [{ type: 'terminal', terminalId: 't1' }] })} permissions={{}} terminals={{ t1: terminal(output) }} />)
    const folded = /<details class="disclosure tool-agent-note"><summary>What the agent told its model<\/summary><p class="tool-agent-note-text">(.*?)<\/p><\/details>/
    const stopped = bash('cancelled', `${note} Correction to the text above: this call was stopped while running.`)
    expect(textOf(stopped)).toContain('No output. Stopped by you.')
    expect(textOf(folded.exec(stopped)?.[1] ?? '')).toContain('STOP what you are doing and wait for the user to tell you how to proceed. Correction to the text above')
    // Output before the note stays the output (drawn by xterm in the page), the card says who stopped it.
    const withOutput = bash('cancelled', `tick 1\ntick 2\n${note}`)
    expect(textOf(withOutput)).toContain('Stopped by you.')
    expect(textOf(withOutput)).not.toContain('No output')
    expect(withOutput).toMatch(folded)
    // Not stopped by the person (failed on its own): the text is the output, as the agent sent it.
    expect(bash('failed', note)).not.toMatch(folded)
    // Stopped while it asked: the call's content is the note, fenced.
    const asked = (status: string) =>
      render(<ToolCallCard entry={card({ status, toolKind: 'edit', content: [{ type: 'content', content: { type: 'text', text: `\`\`\`\n${note}\n\`\`\`` } }] })} permissions={{}} terminals={{}} />)
    expect(textOf(folded.exec(asked('cancelled'))?.[1] ?? '')).toBe(note.replace(/'/g, '&#x27;'))
    expect(asked('cancelled')).not.toContain('md-code')
    expect(asked('failed')).toContain('md-code')
  })

  it('an agent\'s own terminal still runs while its call is in a status Bosun does not know, as the card says (H23: unknown = in progress)', () => {
    const terminal = { terminalId: 't1', agentRun: true as const, command: 'npm test', output: 'running tests\n' }
    const html = (status: string) => render(<ToolCallCard entry={card({ status, content: [{ type: 'terminal', terminalId: 't1' }] })} permissions={{}} terminals={{ t1: terminal }} />)
    for (const status of ['in_progress', '_queued', 'running', 'paused']) expect(html(status)).toMatch(/role="status">running</)
    expect(html('completed')).not.toMatch(/role="status">running</)
  })

  it('an agent\'s own terminal of a failed call whose whole output is a <tool_use_error> says it did not run, without the tags (Claude Code\'s "Blocked: …")', () => {
    const blocked = '<tool_use_error>Blocked: sleep 25 followed by: echo slept.</tool_use_error>'
    const terminal = (output: string, exitCode: number | null) => ({ terminalId: 't1', agentRun: true as const, command: 'sleep 25; echo slept', output, exitStatus: { exitCode, signal: null } })
    const text = (status: string, t: ReturnType<typeof terminal>) => textOf(render(<ToolCallCard entry={card({ status, content: [{ type: 'terminal', terminalId: 't1' }] })} permissions={{}} terminals={{ t1: t }} />))
    const failed = text('failed', terminal(blocked, null))
    // The text itself is drawn by xterm in the page (the e2e test reads it); here, the badge.
    expect(failed).toContain('not run')
    expect(failed).not.toContain('exited')
    // A command that ran and failed keeps its exit code and its output as it came.
    expect(text('failed', terminal(blocked, 1))).toContain('exit 1')
    expect(text('failed', terminal('cat: x: No such file', null))).toContain('exited')
  })

  it('a tool call left pending or in progress when its v1 turn ended is not finished, neither waiting nor running', () => {
    // claude-agent-acp asks about the sandbox's network access with a tool call it never reports finished.
    const allowed = request({ status: 'answered', resolution: { by: 'person', optionId: 'allow', optionKind: 'allow_once', at: 2 } })
    const entry = card({ title: 'example.com', toolKind: 'other', status: 'pending', permissionIds: [allowed.requestId] })
    const row = (turnEnded: boolean, overrides: Partial<ToolCallEntry> = {}) =>
      textOf(
        render(
          <EntryRow
            entry={card({ ...entry, ...overrides })}
            session={{ permissions: { [allowed.requestId]: allowed }, terminals: {}, elicitations: {}, protocolVersion: 1 }}
            agentName="Claude"
            turnEnded={turnEnded}
          />,
        ),
      )
    expect(row(true)).toContain('Not finished')
    expect(row(true)).not.toContain('Pending')
    expect(row(true, { status: 'in_progress' })).toContain('Not finished')
    expect(row(false)).toContain('Pending')
    expect(row(true, { status: 'completed' })).toContain('Completed')
    // Still waiting for the person: it says so, whatever the turn, and only that (not "Pending" or "In progress" as
    // well: OpenCode reports its command in progress while it waits, and the card read as if it ran).
    const open = request()
    for (const status of ['pending', 'in_progress']) {
      const waiting = textOf(render(<ToolCallCard entry={card({ status, permissionIds: [open.requestId] })} permissions={{ [open.requestId]: open }} terminals={{}} turnEnded />))
      expect(waiting).toContain('Needs approval')
      expect(waiting).not.toMatch(/Pending|In progress|Not finished/)
    }
    // Which entries are of an ended turn: only v1 can tell; before the last prompt, or all of them once idle.
    const turn = (state: 'idle' | 'running') => ({ state, stopReason: null, error: null, background: null, completedTurns: 1 }) as const
    expect([0, 2, 3].map((i) => inEndedTurn({ protocolVersion: 1, turn: turn('running') }, 2, i))).toEqual([true, false, false])
    expect(inEndedTurn({ protocolVersion: 1, turn: turn('idle') }, 2, 3)).toBe(true)
    expect(inEndedTurn({ protocolVersion: 2, turn: turn('idle') }, 2, 0)).toBe(false)
  })

  it('a tool call rejected and reported no further is "Rejected", live and reopened alike, not "Not finished" or "Cancelled"', () => {
    // codex-acp 2.6.0 ("No, and tell Codex what to do differently") and Gemini CLI 0.61.0 send no update after a
    // rejection: the call stays `pending` (live), and is `cancelled` once the session is reopened (the agent gone).
    const rejected = request({ status: 'answered', resolution: { by: 'person', optionId: 'reject', optionKind: 'reject_once', at: 2 } })
    // The badge in the card's header (its footer says "Rejected by you (Reject)" whatever the badge).
    const badge = (status: string, turnEnded: boolean, optionKind = 'reject_once') =>
      /<span class="badge [^"]*"[^>]*>([^<]*)<\/span>/.exec(
        render(
          <ToolCallCard
            entry={card({ status, permissionIds: [rejected.requestId], decidedBy: { kind: 'person', label: 'Reject', optionKind } })}
            permissions={{ [rejected.requestId]: rejected }}
            terminals={{}}
            turnEnded={turnEnded}
          />,
        ),
      )?.[1]
    for (const [status, turnEnded] of [['pending', false], ['pending', true], ['in_progress', true], ['cancelled', true]] as const) {
      expect(badge(status, turnEnded)).toBe('Rejected')
    }
    // What the agent reported of it, when it did, is what it says (claude-agent-acp fails a rejected call).
    expect(badge('failed', true)).toBe('Failed')
    // An allowed call left pending is still not finished.
    expect(badge('pending', true, 'allow_once')).toBe('Not finished')
  })

  it("a command Gemini CLI reports completed after the person's Stop, its output opened by 'Command cancelled by user.', is Stopped, the words a note (Gemini CLI 0.61)", () => {
    // Captured: /tmp/agents14/wire-gemini-d.jsonl (Stop while `for i in 1 … 40; do echo tick $i; sleep 1; done` ran).
    const output = 'Command cancelled by user.\n\nOutput before cancellation:\ntick 1\ntick 2\ntick 3'
    const html = (text: string) =>
      render(<ToolCallCard entry={card({ title: 'for i in 1 2 3; do echo tick $i; sleep 1; done', status: 'completed', toolKind: 'execute', content: [{ type: 'content', content: { type: 'text', text } }] })} permissions={{}} terminals={{}} />)
    const stopped = html(output)
    expect(stopped).toMatch(/class="badge badge-muted"[^>]*>Stopped</)
    expect(stopped).not.toContain('>Completed<')
    expect(stopped).toMatch(/class="muted tool-shell-note"><span>Command cancelled by user.</)
    expect(textOf(stopped)).toContain('tick 3')
    expect(textOf(stopped)).not.toContain('Output before cancellation')
    // The words anywhere but at the start are the command's own output.
    expect(html('tick 1\nCommand cancelled by user.')).toContain('>Completed<')
  })

  it("a command OpenCode ends with its note to its model says it as a note, and one the person stopped is not 'Completed' (OpenCode 1.18.33 at Stop)", () => {
    // Captured: /tmp/agents11/opencode-stop-minute.jsonl (Stop while `for i in $(seq 1 60)…` ran).
    const output = 'sec 1\nsec 2\nsec 3\n\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>'
    const html = (text: string, status = 'completed') =>
      render(<ToolCallCard entry={card({ title: 'for i in $(seq 1 60); do echo sec $i; sleep 1; done', status, rawInput: { command: 'seq 60' }, content: [{ type: 'content', content: { type: 'text', text } }] })} permissions={{}} terminals={{}} />)
    const stopped = html(output)
    expect(textOf(stopped)).not.toContain('shell_metadata')
    expect(textOf(stopped)).toContain('sec 3')
    expect(stopped).toMatch(/class="muted tool-shell-note"><span>User aborted the command</)
    expect(stopped).toMatch(/class="badge badge-muted"[^>]*>Stopped</)
    expect(stopped).not.toContain('>Completed<')
    // Another note (its timeout) is said the same way; the call stays as the agent reported it.
    const timedOut = html('tick\n\n<shell_metadata>\nbash tool terminated command after exceeding timeout 120000 ms\n</shell_metadata>')
    expect(timedOut).toMatch(/tool-shell-note"><span>bash tool terminated command after exceeding timeout 120000 ms</)
    expect(timedOut).toContain('>Completed<')
    // Tags anywhere but at the end are the command's own output.
    expect(textOf(html('<shell_metadata>\nx\n</shell_metadata>\nmore output'))).toContain('shell_metadata')
  })

  it('a tool call\'s text output keeps its lines (a file list), where an agent message joins them as prose', () => {
    // claude-agent-acp sends Glob's and Grep's results as plain text, one path a line.
    const entry = card({ status: 'completed', toolKind: 'search', content: [{ type: 'content', content: { type: 'text', text: 'src/app.ts\nsrc/b.ts' } }] })
    const html = render(<ToolCallCard entry={entry} permissions={{}} terminals={{}} />)
    expect(html).toMatch(/src\/app\.ts<br\s*\/?>\s*src\/b\.ts/)
    const message = render(<EntryRow entry={{ kind: 'agent_message', id: 'm', content: [{ type: 'text', text: 'one\ntwo' }] }} session={{ permissions: {}, terminals: {}, elicitations: {}, protocolVersion: 1 }} agentName="Claude" />)
    expect(message).not.toContain('<br')
  })

  it('a file read and a command output sent bare are shown as sent, not as Markdown (OpenCode sends them unfenced)', () => {
    const output = (toolKind: string, text: string) =>
      render(<ToolCallCard entry={card({ status: 'completed', toolKind, content: [{ type: 'content', content: { type: 'text', text } }] })} permissions={{}} terminals={{}} />)
    const file = output('read', '# Notes\n\n__init__.py\n* item')
    expect(file).toContain('<pre class="tool-output" tabindex="0"># Notes\n\n__init__.py\n* item</pre>')
    expect(file).not.toMatch(/<h1|<strong|<li/)
    const listing = output('execute', 'total 8\ndrwxr-xr-x 2 root root 4096 .\n-rw-r--r-- 1 root root   12 a_b_c.md')
    expect(listing).toContain('<pre class="tool-output" tabindex="0">total 8\ndrwxr-xr-x 2 root root 4096 .\n-rw-r--r-- 1 root root   12 a_b_c.md</pre>')
    // Output the agent fenced is its Markdown (claude-agent-acp's Read): a code block, no second frame around it.
    const fenced = output('read', '```\n# Notes\n```')
    expect(fenced).not.toContain('tool-output')
    expect(fenced).toContain('md-code')
    // Prose from another kind of tool stays Markdown.
    expect(output('other', 'Done: **two** files')).toContain('<strong>two</strong>')
  })

  it('a command output sent as text shows what a terminal would (claude-agent-acp\'s Bash result): no escape codes, a progress bar at its last frame', () => {
    const raw = '\x1b[1;31mred bold\x1b[0m ok\n\rprogress 1/5\rprogress 2/5\rprogress 5/5\n\x1b[0m\x1b[01;34mboot\x1b[0m\r\nlast\x07'
    const output = (text: string, toolKind = 'execute') =>
      render(<ToolCallCard entry={card({ status: 'completed', toolKind, content: [{ type: 'content', content: { type: 'text', text } }] })} permissions={{}} terminals={{}} />)
    const fenced = textOf(output('```console\n' + raw + '\n```'))
    expect(fenced).toContain('red bold ok\nprogress 5/5\nboot\nlast')
    // eslint-disable-next-line no-control-regex
    expect(fenced).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]|progress 1\/5/)
    expect(output(raw)).toContain('<pre class="tool-output" tabindex="0">red bold ok\nprogress 5/5\nboot\nlast</pre>')
    // A shorter frame leaves the end of a longer one, as on a terminal.
    expect(textOf(output('Downloading 10%\rDone', 'other'))).toContain('Doneloading 10%')
  })

  it('a JSON output of any kind keeps its indentation; text that only looks like it stays Markdown', () => {
    const output = (text: string) =>
      render(<ToolCallCard entry={card({ status: 'completed', toolKind: 'other', content: [{ type: 'content', content: { type: 'text', text } }] })} permissions={{}} terminals={{}} />)
    const todos = '[\n  {\n    "content": "Inspect the folder",\n    "status": "in_progress"\n  }\n]'
    expect(output(todos)).toContain(`<pre class="tool-output" tabindex="0">${todos.replace(/"/g, '&quot;')}</pre>`)
    expect(output('[link](https://example.com) and [x]')).not.toContain('tool-output')
  })

  it("OpenCode's todowrite card shows the list it wrote as a checklist, not as its JSON (OpenCode 1.18.33)", () => {
    // As OpenCode sends the call once completed: its input's list, and the same list pretty-printed as the output.
    const todos = [
      { id: '1', content: 'Read the code', status: 'completed', priority: 'medium' },
      { id: '2', content: 'Change the code', status: 'in_progress', priority: 'medium' },
      { id: '3', content: 'Run the tests', status: 'pending', priority: 'medium' },
    ]
    const text = JSON.stringify(todos.map(({ content, status, priority }) => ({ content, status, priority })), null, 2)
    const todoCard = (rawInput: unknown, output = text) =>
      render(<ToolCallCard entry={card({ title: '2 todos', status: 'completed', toolKind: 'other', rawInput, content: [{ type: 'content', content: { type: 'text', text: output } }] })} permissions={{}} terminals={{}} />)
    const html = todoCard({ todos })
    expect(html).toContain('<ul class="plan-list" role="list">')
    expect(textOf(html.slice(html.indexOf('plan-list')))).toMatch(/✓Read the code.*◐Change the code.*○Run the tests/s)
    expect(html).not.toContain('<pre class="tool-output"')
    // The JSON is still under Raw input; output of another shape, or of a call that wrote no list, is shown as sent.
    expect(todoCard({ todos }, '[{"path": "a.ts"}]')).toContain('<pre class="tool-output"')
    expect(todoCard({ query: 'x' })).toContain('<pre class="tool-output"')
  })

  it('shows the diff a permission request showed once the content has none, under words saying where it is from', () => {
    const diff = { type: 'diff', path: '/w/notes.md', oldText: '', newText: '# Notes\n' }
    const wrote = { type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }
    const html = render(<ToolCallCard entry={card({ status: 'completed', toolKind: 'edit', content: [wrote], askedDiffs: [diff] })} permissions={{}} terminals={{}} />)
    expect(html).toContain('The change as shown when the agent asked for approval:')
    expect(html).toContain('Diff of /w/notes.md')
    // The agent's own diff is the one shown: no second one.
    const own = render(<ToolCallCard entry={card({ status: 'completed', toolKind: 'edit', content: [wrote, diff], askedDiffs: [diff] })} permissions={{}} terminals={{}} />)
    expect(own).not.toContain('when the agent asked')
    expect(own.match(/Diff of \/w\/notes\.md/g)).toHaveLength(1)
  })

  it('numbers each diff of an edit of several places from its own location (claude-agent-acp: a snippet and a location per hunk)', () => {
    const hunk = (at: number) => {
      const lines = (name: string) => [`const line${at} = ${at}`, `export const ${name}_${at + 1} = 1`, `const line${at + 2} = ${at + 2}`].join('\n')
      return { type: 'diff', path: '/w/big.ts', oldText: lines('OLDNAME'), newText: lines('NEWNAME') }
    }
    const locations = [9, 1009, 2009].map((line) => ({ path: '/w/big.ts', line }))
    const content = [hunk(9), hunk(1009), hunk(2009)]
    const rawInput = { file_path: '/w/big.ts', old_string: 'OLDNAME', new_string: 'NEWNAME', replace_all: true }
    const headers = (entry: ToolCallEntry) => textOf(render(<ToolCallCard entry={entry} permissions={{}} terminals={{}} />)).match(/@@ [^@]+ @@/g)
    expect(headers(card({ title: 'Edit big.ts', toolKind: 'edit', status: 'completed', locations, rawInput, content }))).toEqual(['@@ -9,3 +9,3 @@', '@@ -1009,3 +1009,3 @@', '@@ -2009,3 +2009,3 @@'])
    // The diffs a permission request showed are placed the same way.
    const asked = card({ title: 'Edit big.ts', toolKind: 'edit', status: 'completed', locations, rawInput, content: [], askedDiffs: content })
    expect(headers(asked)).toEqual(['@@ -9,3 +9,3 @@', '@@ -1009,3 +1009,3 @@', '@@ -2009,3 +2009,3 @@'])
  })

  it('shows the diff a permission request showed under an excerpt nothing places that replaced it (OpenCode 1.18.33: an edit of several places)', () => {
    const file = (name: string) => Array.from({ length: 30 }, (_, i) => (i % 10 === 4 ? `export const ${name}_${i + 1} = 1` : `line ${i + 1}`)).join('\n')
    const asked = { type: 'diff', path: '/w/big.ts', oldText: file('OLDNAME'), newText: file('NEWNAME') }
    const excerpt = { type: 'diff', path: '/w/big.ts', oldText: 'OLDNAME', newText: 'NEWNAME' }
    const done = { type: 'content', content: { type: 'text', text: 'Edit applied successfully.' } }
    const rawInput = { filePath: '/w/big.ts', oldString: 'OLDNAME', newString: 'NEWNAME', replaceAll: true }
    const edit = (content: ToolCallEntry['content'], status = 'completed') =>
      textOf(render(<ToolCallCard entry={card({ title: 'edit', toolKind: 'edit', status, locations: [{ path: '/w/big.ts' }], rawInput, content, askedDiffs: [asked] })} permissions={{}} terminals={{}} />))
    const completed = edit([done, excerpt])
    expect(completed).toContain('The change as shown when the agent asked for approval:')
    expect(completed.match(/@@ [^@]+ @@/g)).toEqual(['@@ -2,7 +2,7 @@', '@@ -12,7 +12,7 @@', '@@ -22,7 +22,7 @@'])
    // Waiting for approval, the request's diff is the content: shown once.
    expect(edit([asked], 'pending')).not.toContain('when the agent asked')
    // An excerpt the request showed too (claude-agent-acp's Edit asks with the replaced snippet) is shown once.
    const claude = textOf(render(<ToolCallCard entry={card({ title: 'Edit big.ts', toolKind: 'edit', rawInput: { file_path: '/w/big.ts', old_string: 'OLDNAME', new_string: 'NEWNAME' }, content: [excerpt], askedDiffs: [excerpt] })} permissions={{}} terminals={{}} />))
    expect(claude).not.toContain('when the agent asked')
    // A diff the agent places in its file (a location's line, or the whole file) is what it did: the request's is not added.
    expect(edit([done, { ...asked, newText: file('RENAMED') }])).not.toContain('when the agent asked')
  })

  it('shows what Bosun wrote for the call where the content shows no diff of that file, under words saying so', () => {
    const written = { type: 'diff' as const, path: '/w/made.md', oldText: null, newText: '# Made\n' }
    const replaced = render(<ToolCallCard entry={card({ status: 'completed', toolKind: 'edit', content: [{ type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }], writtenDiffs: [written] })} permissions={{}} terminals={{}} />)
    expect(textOf(replaced)).toContain('What Bosun wrote for the agent:')
    expect(textOf(replaced)).toContain('# Made')
    // The agent's own diff of that file is shown alone.
    const own = render(<ToolCallCard entry={card({ status: 'completed', toolKind: 'edit', content: [written], writtenDiffs: [written] })} permissions={{}} terminals={{}} />)
    expect(textOf(own)).not.toContain('What Bosun wrote')
  })

  it('shows no Command block when the title is the command (claude-agent-acp), the title saying it once', () => {
    const claude = render(<ToolCallCard entry={card({ title: '`npm test -- --grep \\`x\\``', rawInput: { command: 'npm test -- --grep `x`', description: 'Run the tests' } })} permissions={{}} terminals={{}} />)
    expect(claude).not.toContain('aria-label="Command"')
    // Once above the raw input (collapsed, below).
    expect(textOf(claude.split('<details')[0]!).match(/npm test/g)).toHaveLength(1)
    // A title that says something else keeps the command below it.
    const described = render(<ToolCallCard entry={card({ title: 'Run the tests', rawInput: { command: 'npm test' } })} permissions={{}} terminals={{}} />)
    expect(described).toContain('aria-label="Command"')
  })

  it("names a path its title already names once: Bosun's own write card, claude-agent-acp's Edit", () => {
    const diff = { type: 'diff' as const, path: '/w/made.md', oldText: null, newText: '# Made\n' }
    const own = render(<ToolCallCard entry={card({ title: 'Created /w/made.md', toolKind: 'edit', status: 'completed', locations: [{ path: '/w/made.md' }], content: [diff] })} permissions={{}} terminals={{}} />)
    // Only the title names it: the body (its location row and its diff's header) does not.
    const body = (html: string) => textOf(html.slice(html.indexOf('class="tool-body"')))
    expect(textOf(own)).toContain('/w/made.md')
    expect(body(own)).not.toContain('/w/made.md')
    // Still opened and copied by its buttons, and the diff still named, for screen readers.
    expect(own).toContain('aria-label="Open /w/made.md"')
    expect(own).toContain('aria-label="Diff of /w/made.md"')
    const edit = render(<ToolCallCard entry={card({ title: 'Edit `/w/a.ts`', toolKind: 'edit', locations: [{ path: '/w/a.ts', line: 4 }], content: [{ ...diff, path: '/w/a.ts' }] })} permissions={{}} terminals={{}} />)
    expect(body(edit)).not.toContain('/w/a.ts')
    expect(body(edit)).toContain('Line 4')
    // A title that names another file (or a longer one) leaves the path shown.
    const other = render(<ToolCallCard entry={card({ title: 'Read /w/a.ts.bak', toolKind: 'read', locations: [{ path: '/w/a.ts' }] })} permissions={{}} terminals={{}} />)
    expect(body(other).match(/\/w\/a\.ts/g)).toHaveLength(1)
  })

  it('shows which files and lines Bosun read for the call (fs/read_text_file), and the reducer keeps them', () => {
    let state = createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1 } as never)
    state = applyActions(state, [
      { type: 'updates', updates: [{ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'Read notes', kind: 'read', status: 'in_progress' }] as never },
      {
        type: 'file_read',
        toolCallId: 'r',
        filesRead: [
          { path: '/w/notes.md', line: 10, limit: 20, lines: 20, times: 1 },
          { path: '/w/a.ts', line: null, limit: null, lines: 1, times: 3 },
          { path: '/w/bad', line: -1, limit: null, lines: 1, times: 1 },
        ],
      },
    ])
    const entry = state.entries.find((e): e is ToolCallEntry => e.kind === 'tool_call')!
    expect(entry.filesRead).toHaveLength(2)
    const text = textOf(render(<ToolCallCard entry={entry} permissions={{}} terminals={{}} />))
    expect(text).toContain('What Bosun read for the agent:')
    expect(text).toContain('/w/notes.md · lines 10–29')
    expect(text).toContain('/w/a.ts · the whole file, 1 line, read 3 times')
  })

  it('reveals hidden characters in the title (and its accessible name) and the locations', () => {
    const html = render(
      <ToolCallCard entry={card({ title: 'Edit a\u202Etxt.exe', toolKind: 'edit', locations: [{ path: '/p/x\u200B.ts', line: 4 }] })} permissions={{}} terminals={{}} />,
    )
    expect(html).not.toContain('\u202E')
    expect(html).not.toContain('\u200B')
    expect(html).toContain('aria-label="Edit a⟨U+202E⟩txt.exe"')
    expect(html).toContain('U+202E RIGHT-TO-LEFT OVERRIDE')
    expect(html).toContain('U+200B ZERO WIDTH SPACE')
    expect(html).toContain(':4')
    expect(html).toContain('hidden or direction-changing characters')
  })

  it('reveals hidden characters in a diff: its path (a .sh shown as .txt), its lines (Trojan Source) and a v2 change list; tabs stay layout', () => {
    const spoofed = { type: 'diff', path: '/w/notes-\u202Etxt.sh', oldText: 'ok\n', newText: 'if (admin) {\u202E } \u2066// later\n\tindented\n' }
    const html = render(<ToolCallCard entry={card({ title: 'Edit notes', toolKind: 'edit', content: [spoofed] })} permissions={{}} terminals={{}} />)
    expect(html).not.toContain('\u202E')
    expect(html).not.toContain('\u2066')
    expect(html).toContain('aria-label="Diff of /w/notes-⟨U+202E⟩txt.sh"')
    expect(textOf(html)).toContain('/w/notes-U+202Etxt.sh')
    expect(textOf(html)).toContain('if (admin) {U+202E } U+2066// later')
    expect(html).toContain('Contains hidden or direction-changing characters')
    expect(html).toContain('\tindented')
    expect(html).not.toContain('U+0009')
    const changes = { type: 'diff', changes: [{ operation: 'move', oldPath: '/w/a\u200B.ts', path: '/w/b-\u202Etxt.sh' }] }
    const moved = render(<ToolCallCard entry={card({ title: 'Move', toolKind: 'edit', content: [changes] })} permissions={{}} terminals={{}} />)
    expect(moved).not.toContain('\u202E')
    expect(moved).not.toContain('\u200B')
    expect(moved).toContain('Contains hidden or direction-changing characters')
    // A plain diff with tabs says nothing.
    const plain = render(<ToolCallCard entry={card({ title: 'Edit', toolKind: 'edit', content: [{ type: 'diff', path: '/w/a.go', oldText: '', newText: '\tx := 1\n' }] })} permissions={{}} terminals={{}} />)
    expect(plain).not.toContain('hidden or direction-changing')
  })
})

describe('ToolCallCard: elicitations tied to the tool call', () => {
  const form = (overrides: Partial<ElicitationView> = {}): ElicitationView => ({
    elicitationRequestId: 'eli#1:n:1',
    agentId: 'a',
    agentName: 'Claude',
    sessionId: 's',
    toolCallId: 'c1',
    mode: 'form',
    message: 'Which branch should I deploy?',
    requestedSchema: { type: 'object', properties: { branch: { type: 'string', title: 'Branch' } }, required: ['branch'] },
    createdAt: 1,
    status: 'pending',
    ...overrides,
  })

  it('renders a pending form on its card through the elicitation seam, and marks the card as waiting', () => {
    const e = form()
    const html = render(<ToolCallCard entry={card({ elicitationIds: [e.elicitationRequestId] })} permissions={{}} elicitations={{ [e.elicitationRequestId]: e }} terminals={{}} />)
    expect(html).toContain('Which branch should I deploy?')
    expect(html).toMatch(/<(input|textarea)[^>]*data-field="branch"/)
    expect(html).toContain('Branch')
    expect(html).toContain('Needs input')
    expect(html).toContain('tool-awaiting')
  })

  it('a URL elicitation awaiting its completion still waits on the card; an answered one shows its outcome only', () => {
    const url = form({ elicitationRequestId: 'u', mode: 'url', url: 'https://example.com/login', requestedSchema: undefined, message: 'Log in', status: 'accepted' })
    const waiting = render(<ToolCallCard entry={card({ elicitationIds: ['u'] })} permissions={{}} elicitations={{ u: url }} terminals={{}} />)
    expect(waiting).toContain('Needs input')
    expect(waiting).toContain('Log in')
    const answered = form({ status: 'accepted' })
    const done = render(<ToolCallCard entry={card({ elicitationIds: [answered.elicitationRequestId] })} permissions={{}} elicitations={{ [answered.elicitationRequestId]: answered }} terminals={{}} />)
    expect(done).not.toContain('Needs input')
    expect(done).not.toContain('tool-awaiting')
    expect(done).toMatch(/role="status">Answered</)
  })

  /** How often `text` occurs in the markup's text. */
  const count = (html: string, text: string) => textOf(html).split(text).length - 1
  const said = (text: string) => ({ type: 'content', content: { type: 'text', text } }) as ToolCallEntry['content'][number]

  it('a text content that is the question of its form (claude-agent-acp’s AskUserQuestion) is shown once, in the form', () => {
    const e = form()
    const entry = card({ title: 'Ask a question', toolKind: 'other', content: [said('Which branch should I deploy?\n')], elicitationIds: [e.elicitationRequestId] })
    const html = render(<ToolCallCard entry={entry} permissions={{}} elicitations={{ [e.elicitationRequestId]: e }} terminals={{}} />)
    expect(count(html, 'Which branch should I deploy?')).toBe(1)
    expect(html).toMatch(/class="eli-message"><span>Which branch should I deploy\?</)
  })

  it('a text content that is the card’s title is shown once, as the title; one that differs in anything is shown', () => {
    const e = form({ message: 'Pick one' })
    const entry = card({
      title: 'Which branch should I deploy?',
      toolKind: 'other',
      content: [said('Which branch should I deploy?'), said('Which branch should I deploy? (main is frozen)'), said('Pick one.')],
      elicitationIds: [e.elicitationRequestId],
    })
    const html = render(<ToolCallCard entry={entry} permissions={{}} elicitations={{ [e.elicitationRequestId]: e }} terminals={{}} />)
    expect(count(html, 'Which branch should I deploy?')).toBe(2)
    expect(textOf(html)).toContain('Which branch should I deploy? (main is frozen)')
    expect(textOf(html)).toContain('Pick one.')
  })
})

describe('VisibleText', () => {
  it('keeps each line feed once: a marker, then one real line break', () => {
    const html = renderToStaticMarkup(<VisibleText text={'a\nb'} keepNewlines />)
    expect(html.match(/\n/g)).toHaveLength(1)
    expect(textOf(html)).toBe('a⏎\nb')
    expect(textOf(renderToStaticMarkup(<VisibleText text={'a\nb'} />))).toBe('a⏎b')
  })
})

describe('ToolCallCard: file locations', () => {
  it('offers Open and Copy path for each location, named with its path (and line)', () => {
    const html = render(<ToolCallCard entry={card({ locations: [{ path: '/p/src/a.ts', line: 12 }, { path: '/p/README.md' }] })} permissions={{}} terminals={{}} />)
    expect(html).toContain('aria-label="Open /p/src/a.ts:12"')
    expect(html).toContain('aria-label="Copy path /p/src/a.ts:12"')
    expect(html).toContain('aria-label="Open /p/README.md"')
    expect(html).toContain('aria-label="Copy path /p/README.md"')
    expect(textOf(html)).toContain('/p/src/a.ts:12OpenCopy path')
  })

  it('asks main to open a location of its session (main decides; the renderer sends what the tool call said)', async () => {
    const asked: unknown[] = []
    const recording = new Proxy({}, { get: (_t, name) => async (arg: unknown) => (asked.push([name, arg]), { ok: false, error: { kind: 'unsupported', message: 'no' } }) }) as BosunApi
    const seams = createWiredSeams(recording)
    expect(await seams.onOpenSessionLocation!('agent/s-1', { path: '/p/src/a.ts', line: 12 })).toEqual({ ok: false, error: { kind: 'unsupported', message: 'no' } })
    await seams.onOpenSessionLocation!('agent/s-1', { path: '/p/README.md', line: null })
    expect(asked).toEqual([
      ['openLocation', { sessionId: 'agent/s-1', path: '/p/src/a.ts', line: 12 }],
      ['openLocation', { sessionId: 'agent/s-1', path: '/p/README.md' }],
    ])
  })
})

describe('a tool call title written in Markdown', () => {
  it("shows a span in backticks without them (claude-agent-acp's Edit `/src/a.ts`), in the card and its accessible name", () => {
    expect(titleForDisplay('Edit `/tmp/proj/src/parser.ts`', 'edit')).toBe('Edit /tmp/proj/src/parser.ts')
    expect(titleForDisplay('Read `a.ts` and `b.ts`', 'read')).toBe('Read a.ts and b.ts')
    expect(titleForDisplay('A lone ` stays', 'other')).toBe('A lone ` stays')
  })

  it("leaves a command's title exactly as sent: there a backtick is the shell's", () => {
    expect(titleForDisplay('echo `date`', 'execute')).toBe('echo `date`')
  })
})

describe('ToolCallCard: a failed call’s error text', () => {
  const failed = (text: string, status = 'failed') =>
    render(<ToolCallCard entry={card({ title: 'Edit notes.md', toolKind: 'edit', status, content: [{ type: 'content', content: { type: 'text', text } }] })} permissions={{}} terminals={{}} />)

  it('is shown without claude-agent-acp’s <tool_use_error> wrapper', () => {
    const html = failed('<tool_use_error>String to replace not found in file.\nString: this text is not there</tool_use_error>')
    expect(html).not.toContain('tool_use_error')
    expect(textOf(html)).toContain('String to replace not found in file.')
    expect(textOf(html)).toContain('String: this text is not there')
  })

  it('is shown without the Markdown fence around the wrapper (claude-agent-acp 0.101): as text, not a code block', () => {
    const html = failed('```\n<tool_use_error>String to replace not found in file.\nString: this text is not there</tool_use_error>\n```')
    expect(html).not.toContain('tool_use_error')
    expect(html).not.toContain('```')
    expect(html).not.toContain('<pre')
    expect(textOf(html)).toContain('String to replace not found in file.')
  })

  it("says why when the agent put it only in rawOutput (GitHub Copilot CLI: {message: 'Path does not exist'})", () => {
    const view = (status: string, content: ToolCallEntry['content'] = []) =>
      render(<ToolCallCard entry={card({ title: 'Viewing /w/missing.txt', toolKind: 'read', status, content, rawOutput: { message: 'Path does not exist', code: 'failure' } })} permissions={{}} terminals={{}} />)
    const shown = view('failed')
    expect(textOf(shown)).toContain('Path does not exist')
    expect(shown).toContain('class="tool-failure-reason"')
    // Not when the call did not fail, nor when its content already says why.
    expect(view('completed')).not.toContain('tool-failure-reason')
    expect(view('failed', [{ type: 'content', content: { type: 'text', text: 'No such file' } }])).not.toContain('tool-failure-reason')
  })

  it('a failed call with no content and no reason says so in words, with its kind and where to look next (it read "Failed" alone)', () => {
    const view = (over: Partial<ToolCallEntry>) => textOf(render(<ToolCallCard entry={card({ title: 'Viewing /w/a.txt', toolKind: 'read', status: 'failed', ...over })} permissions={{}} terminals={{}} />))
    expect(view({})).toContain('The agent reported that this read failed and gave no reason. Ask it in your next message what went wrong; its log (Agents, then Logs) may say more.')
    expect(view({ toolKind: 'execute', title: 'make' })).toContain('this command failed and gave no reason.')
    expect(view({ toolKind: 'a-kind-of-its-own' })).toContain('this tool call failed and gave no reason.')
    // Raw output without words in it: the person is pointed there.
    expect(view({ rawOutput: { code: 7 } })).toContain('gave no reason beyond its raw output (below).')
    // Not when something says why, the call did not fail, or the person rejected it (the footer says so).
    expect(view({ rawOutput: { message: 'Path does not exist' } })).not.toContain('gave no reason')
    expect(view({ content: [{ type: 'content', content: { type: 'text', text: 'No such file' } }] })).not.toContain('gave no reason')
    expect(view({ status: 'completed' })).not.toContain('gave no reason')
    expect(view({ decidedBy: { kind: 'person', label: 'No', optionKind: 'reject_once' } })).not.toContain('gave no reason')
  })

  it('keeps the tags where they are not the whole text, or the call did not fail', () => {
    // A fence that does not close round the whole wrapper is the agent's text, kept as sent.
    expect(failed('```\n<tool_use_error>x</tool_use_error>')).toContain('tool_use_error')
    expect(failed('<tool_use_error>x</tool_use_error>\n```')).toContain('tool_use_error')
    expect(failed('Exit code 1\n<tool_use_error>x</tool_use_error>')).toContain('tool_use_error')
    expect(failed('<tool_use_error>x</tool_use_error>', 'completed')).toContain('tool_use_error')
  })
})

describe('ToolCallCard: a command that runs while its call is still pending', () => {
  const terminal = (over: Record<string, unknown> = {}) => ({ t1: { terminalId: 't1', command: 'make', output: 'tick 1\n', ...over } })
  const running = (terminals: Record<string, never> | ReturnType<typeof terminal>, permissions: Record<string, PermissionRequestView> = {}, permissionIds: string[] = []) =>
    render(<ToolCallCard entry={card({ title: 'make', content: [{ type: 'terminal', terminalId: 't1' }], permissionIds })} permissions={permissions} terminals={terminals} />)
  const badges = (html: string) => [...html.matchAll(/class="badge [^"]*"[^>]*>([^<]+)</g)].map((m) => m[1])

  it('says “In progress” as its terminal says “running” (claude-agent-acp leaves the call pending until it ends)', () => {
    expect(badges(running(terminal()))).toEqual(['In progress', 'running'])
  })

  it('says “Needs approval” (alone) while it waits for approval, and stays “Pending” with no terminal or an ended one', () => {
    const asked = request()
    const waiting = badges(running(terminal({ output: '' }), { [asked.requestId]: asked }, [asked.requestId]))
    expect(waiting).toContain('Needs approval')
    expect(waiting).not.toContain('In progress')
    expect(badges(running({}))).toContain('Pending')
    expect(badges(running(terminal({ exitStatus: { exitCode: 0 } })))).toContain('Pending')
  })
})

describe('ToolCallCard: a v2 subagent’s tool call', () => {
  it('names its subagent beside its title (whole on hover); a call of the session itself names none', () => {
    const html = render(<ToolCallCard entry={card({ title: 'ls -la', subagent: 'Subagent: Survey the files' })} permissions={{}} terminals={{}} />)
    expect(html).toMatch(/class="badge badge-muted tool-subagent" title="Subagent: Survey the files">.*Subagent: Survey the files/)
    expect(render(<ToolCallCard entry={card({ title: 'ls -la' })} permissions={{}} terminals={{}} />)).not.toContain('tool-subagent')
  })
})

describe('the card\'s name for a screen reader', () => {
  it('says the kind before the title, once: a title that starts with the kind\'s word is the name alone', () => {
    expect(cardName('Run', 'Migrate the database')).toBe('Run: Migrate the database')
    expect(cardName('Edit', 'Edit src/app.ts')).toBe('Edit src/app.ts')
    expect(cardName('Read', 'read README.md')).toBe('read README.md')
    expect(cardName('Edit', 'Editor settings')).toBe('Edit: Editor settings')
    expect(render(<ToolCallCard entry={card({ title: 'Edit src/app.ts', toolKind: 'edit' })} permissions={{}} terminals={{}} />)).toContain('aria-label="Edit src/app.ts"')
  })
})

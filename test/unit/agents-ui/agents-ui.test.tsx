import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { BosunApi } from '../../../common/contract'
import type { AgentDefinitionView, AgentPresetView } from '../../../common/contract/agents'
import { AgentEditor } from '../../../renderer/components/agents/AgentEditor'
import { AgentList } from '../../../renderer/components/agents/AgentList'
import { AgentOverview } from '../../../renderer/components/agents/AgentOverview'
import { runtimeActions } from '../../../renderer/components/agents/agent-status'
import { AGENT_TABS, AgentTabs } from '../../../renderer/components/agents/AgentTabs'
import { AuthTerminalView } from '../../../renderer/components/agents/AuthTerminal'
import { CapabilityList, CheckConnection } from '../../../renderer/components/agents/CheckConnection'
import { AccountLine, LoginView } from '../../../renderer/components/agents/LoginPanel'
import { LogsView } from '../../../renderer/components/agents/LogsPanel'
import { PresetPicker } from '../../../renderer/components/agents/PresetPicker'
import { appendTail } from '../../../renderer/components/agents/log-tail'
import { InspectorView, ROW_LIMIT } from '../../../renderer/components/inspector/InspectorPanel'
import { NO_SESSION } from '../../../renderer/components/inspector/inspector-model'
import { AgentsScreen } from '../../../renderer/screens/agents/AgentsScreen'
import { agentTools, type AuthMethodView, type CheckResult, type InspectorMessage } from '../../../renderer/screens/agents/agent-tools-api'
import { namelessButtons, unlabelledControls } from '../../support/static-a11y'

const CANARY = 'sk-canary-7f3a9c'
const noop = () => undefined

const agent: AgentDefinitionView = {
  id: 'claude',
  name: 'Claude',
  command: 'npx',
  args: ['-y', '@zed-industries/claude-agent-acp'],
  argsText: '-y @zed-industries/claude-agent-acp',
  env: { LOG: 'debug' },
  secretEnv: ['ANTHROPIC_API_KEY', 'OTHER_KEY'],
  secretsSet: { ANTHROPIC_API_KEY: true, OTHER_KEY: false },
}
const presets: AgentPresetView[] = [
  { id: 'claude', name: 'Claude', description: 'Claude via npx', command: 'npx', args: ['-y', 'x'], argsText: '-y x', env: {}, secretEnv: ['ANTHROPIC_API_KEY'] },
  { id: 'custom', name: 'Custom', description: 'Anything', command: '', args: [], argsText: '', env: {}, secretEnv: [] },
  { id: 'goose', name: 'goose', description: 'goose acp', command: 'goose', args: ['acp'], argsText: 'acp', env: {}, secretEnv: [] },
]
const methods: AuthMethodView[] = [
  { id: 'login', name: 'Log in with Claude', type: 'agent' },
  { id: 'key', name: 'API key', type: 'env_var', envName: 'ANTHROPIC_API_KEY' },
  { id: 'term', name: 'Setup token', type: 'terminal' },
]
const message = (seq: number, over: Partial<InspectorMessage> = {}): InspectorMessage => ({
  seq,
  time: 1_700_000_000_000 + seq,
  direction: 'out',
  kind: 'request',
  method: 'initialize',
  id: seq,
  bytes: 120,
  message: { jsonrpc: '2.0', id: seq, method: 'initialize', params: { note: '<b>not markup</b>' } },
  ...over,
})

/** Every control and button has an accessible name. */
const expectAccessible = (html: string) => {
  expect(unlabelledControls(html)).toEqual([])
  expect(namelessButtons(html)).toEqual([])
}

const inspectorProps = (messages: InspectorMessage[], over: Partial<Parameters<typeof InspectorView>[0]> = {}) => ({
  messages,
  dropped: 0,
  filter: { method: '', sessionId: '' },
  onFilterChange: noop,
  selectedSeq: null,
  onSelect: noop,
  onExport: noop,
  onClear: noop,
  ...over,
})

describe('agents UI: every control has an accessible name', () => {
  it('the whole screen before loading, the list, the picker and the tabs', () => {
    const screen = renderToStaticMarkup(<AgentsScreen api={agentToolsFreeApi()} onClose={noop} />)
    expect(screen).toContain('role="dialog"')
    expect(screen).toContain('Add agent')
    expectAccessible(screen)

    const list = renderToStaticMarkup(<AgentList agents={[agent]} runtime={{ claude: { agentId: 'claude', name: 'Claude', status: 'crashed' } }} selectedId="claude" onSelect={noop} onAdd={noop} adding={false} />)
    // Named by what it shows: the name, the status in words (not only the dot's colour), the command.
    expect(list).toContain('<span class="agents-list-status">Crashed</span> · <span class="mono">')
    expect(list).toContain('status-crashed')
    expect(list).toContain('aria-current="page"')
    expectAccessible(list)

    const picker = renderToStaticMarkup(<PresetPicker presets={presets} onPick={noop} onCancel={noop} />)
    // Custom comes last, whatever order main listed it in.
    expect([...picker.matchAll(/preset-card-name">([^<]+)</g)].map((m) => m[1])).toEqual(['Claude', 'goose', 'Custom agent'])
    expectAccessible(picker)

    const tabs = renderToStaticMarkup(
      <AgentTabs agentName="Claude" selected="inspector" onSelect={noop}>
        <p>panel</p>
      </AgentTabs>,
    )
    expect(tabs).toContain('role="tablist"')
    expect(tabs.match(/role="tab"/g)).toHaveLength(AGENT_TABS.length)
    expect(tabs.match(/aria-selected="true"/g)).toHaveLength(1)
    expect(tabs).toMatch(/aria-selected="true"[^>]*>Inspector</)
    expect(tabs).toContain('role="tabpanel"')
  })

  it('overview, check connection, login, terminal, logs, inspector and the editor from a preset', () => {
    const check: CheckResult = {
      ok: true,
      agentName: 'Claude',
      agentInfo: { name: 'claude-agent-acp', title: 'Claude Code', version: '0.21.4' },
      protocolVersion: 1,
      capabilities: [{ label: 'Loads earlier sessions', supported: true }],
      authMethods: methods,
      durationMs: 1200,
    }
    const pieces = [
      <AgentOverview agent={agent} onRestart={noop} onStop={noop} />,
      <CheckConnection agentName="Claude" result={{ check }} checking={false} onCheck={noop} onLogin={noop} />,
      <LoginView agentName="Claude" methods={methods} keychainAvailable busy={null} outcomes={{}} onLogin={noop} onOpenTerminal={noop} onLogout={noop} />,
      <AuthTerminalView title="Setup token" output="Paste code > " exit={null} onSend={noop} onClose={noop} />,
      <LogsView text="line" truncated={false} loading={false} />,
      <InspectorView {...inspectorProps([message(1), message(2, { sessionId: 's1' })], { selectedSeq: 1 })} />,
      <AgentEditor presets={presets} initialPresetId="claude" keychain={{ available: true }} validate={async () => ({ errors: {}, argv: [] })} onSave={async () => ({ ok: true })} onCancel={noop} />,
    ]
    for (const piece of pieces) expectAccessible(renderToStaticMarkup(piece))
    const check$ = renderToStaticMarkup(pieces[1]!)
    expect(check$).toContain('Claude Code')
    expect(check$).toContain('0.21.4')
    expect(check$).toContain('ACP version 1')
    expect(check$).toContain('Log in with Claude')
    // The preset filled the form once: command and its secret row.
    const editor = renderToStaticMarkup(pieces[6]!)
    expect(editor).toMatch(/value="npx"/)
    expect(editor).toMatch(/value="ANTHROPIC_API_KEY"/)
  })
})

describe('check connection', () => {
  it('shows capabilities as a checklist in plain words, each also said in words', () => {
    const html = renderToStaticMarkup(
      <CapabilityList
        capabilities={[
          { label: 'Loads earlier sessions', supported: true },
          { label: 'Reads audio in prompts', supported: false },
        ]}
      />,
    )
    expect(html).toContain('aria-label="Capabilities"')
    const items = [...html.matchAll(/<li class="(capability-\w+)">[\s\S]*?capability-label">([^<]+)<\/span><span class="sr-only">([^<]+)</g)].map((m) => [m[1], m[2], m[3]])
    expect(items).toEqual([
      ['capability-yes', 'Loads earlier sessions', ': supported'],
      ['capability-no', 'Reads audio in prompts', ': not supported'],
    ])
    expect(renderToStaticMarkup(<CapabilityList capabilities={[]} />)).toContain('no optional capabilities')
  })

  it('shows a failure with the stderr tail as text in a monospace box', () => {
    const html = renderToStaticMarkup(
      <CheckConnection
        agentName="Broken"
        result={{ failure: { kind: 'agent-exited', message: 'The agent exited with code 1.', stderrTail: 'Error: <script>alert(1)</script>' } }}
        checking={false}
        onCheck={noop}
      />,
    )
    expect(html).toContain('Could not connect')
    expect(html).toContain('The agent exited with code 1.')
    // As text (its hidden characters as markers, in VisibleText's spans).
    expect(html).toMatch(/<pre class="stderr-tail"[^>]*>(<span[^>]*>)*Error: &lt;script&gt;alert\(1\)&lt;\/script&gt;(<\/span>)*<\/pre>/)
    expect(html).not.toContain('<script>')
  })
})

describe('sign-in methods named like members of Object.prototype', () => {
  it('show no outcome before one was recorded for them', () => {
    const odd: AuthMethodView[] = [
      { id: 'constructor', name: 'Constructor login', type: 'agent' },
      { id: 'toString', name: 'ToString login', type: 'agent' },
      { id: '__proto__', name: 'Proto login', type: 'agent' },
    ]
    const html = renderToStaticMarkup(<LoginView agentName="Odd" methods={odd} keychainAvailable busy={null} outcomes={{}} onLogin={noop} onOpenTerminal={noop} onLogout={noop} />)
    expect(html).toContain('Constructor login')
    expect(html).not.toContain('role="alert"')
    expect(html).not.toContain('role="status"')
  })
})

describe('secret values are never rendered', () => {
  it('the editor shows stored secrets as set / not set, with no value', () => {
    const html = renderToStaticMarkup(
      <AgentEditor presets={presets} agent={agent} keychain={{ available: true }} validate={async () => ({ errors: {}, argv: [] })} onSave={async () => ({ ok: true })} onCancel={noop} />,
    )
    expect(html).toContain('aria-label="ANTHROPIC_API_KEY is set"')
    expect(html).toContain('aria-label="OTHER_KEY is not set"')
    expect(html).not.toContain('type="password"')
  })

  it('an empty agents list says so, and leaves how to add one to the page beside it (it named two of the three ways)', () => {
    const html = renderToStaticMarkup(<AgentList agents={[]} runtime={{}} selectedId={null} onSelect={noop} onAdd={noop} adding />)
    expect(html).toContain('<p class="agents-list-empty muted small">No agents yet.</p>')
  })

  it('an empty environment or secrets group says so above its button (it showed the button alone)', () => {
    const bare = { ...agent, env: {}, secretEnv: [], secretsSet: {} }
    const html = renderToStaticMarkup(
      <AgentEditor presets={presets} agent={bare} keychain={{ available: true }} validate={async () => ({ errors: {}, argv: [] })} onSave={async () => ({ ok: true })} onCancel={noop} />,
    )
    expect(html).toMatch(/<legend class="field-label">Environment<\/legend><p class="muted small agent-editor-none">None added\.<\/p>/)
    expect(html).toMatch(/<legend class="field-label">Secrets \(stored in the system keychain\)<\/legend><p class="muted small agent-editor-none">None added\./)
    const full = renderToStaticMarkup(
      <AgentEditor presets={presets} agent={agent} keychain={{ available: true }} validate={async () => ({ errors: {}, argv: [] })} onSave={async () => ({ ok: true })} onCancel={noop} />,
    )
    expect(full).not.toContain('agent-editor-none')
  })

  it('the overview says set / not set', () => {
    const html = renderToStaticMarkup(<AgentOverview agent={agent} onRestart={noop} onStop={noop} />)
    expect(html).toMatch(/ANTHROPIC_API_KEY<\/span> <span class="badge badge-ok">set</)
    expect(html).toMatch(/OTHER_KEY<\/span> <span class="badge badge-warn">not set</)
  })

  it('the overview says "None" alike of no arguments, no environment and no secrets (the environment said "Nothing added")', () => {
    const html = renderToStaticMarkup(<AgentOverview agent={{ ...agent, args: [], env: {}, secretEnv: [], secretsSet: {} }} onRestart={noop} onStop={noop} />)
    expect(html.match(/<span class="muted">None<\/span>/g)).toHaveLength(3)
    expect(html).not.toContain('Nothing added')
  })

  it('the overview of a running agent whose definition changed since it started says a restart applies it', () => {
    const running = { agentId: agent.id, name: agent.name, status: 'ready' as const, pid: 42 }
    const changed = renderToStaticMarkup(<AgentOverview agent={agent} runtime={{ ...running, definitionChanged: true }} onRestart={noop} onStop={noop} />)
    expect(changed).toContain('Runs the definition it started with: your changes apply when Claude restarts')
    expectAccessible(changed)
    expect(renderToStaticMarkup(<AgentOverview agent={agent} runtime={running} onRestart={noop} onStop={noop} />)).not.toContain('Runs the definition')
    // Which changes a restart applies, when main names them.
    const named = (definitionChanges: string[]) =>
      renderToStaticMarkup(<AgentOverview agent={agent} runtime={{ ...running, definitionChanged: true, definitionChanges }} onRestart={noop} onStop={noop} />)
    expect(named(['the new arguments', '2 changed environment variables'])).toContain(
      'Runs the definition it started with: Claude uses the new arguments and 2 changed environment variables from its next start (Restart ends a turn in progress).',
    )
    expect(named(['the new command', 'the new arguments', '1 added or removed key'])).toContain('Claude uses the new command, the new arguments and 1 added or removed key from its next start')
    expect(named(['the key values you changed'])).toContain('Claude uses the key values you changed from its next start')
  })

  it('the overview of a run that speaks another version than the one now set says the setting applies from its next start', () => {
    const running = { agentId: agent.id, name: agent.name, status: 'ready' as const, pid: 42, protocolVersion: 2 as const }
    const offerOne = renderToStaticMarkup(<AgentOverview agent={{ ...agent, protocolVersion: 1 }} runtime={running} onRestart={noop} onStop={noop} />)
    expect(offerOne).toContain('Set to offer version 1: from its next start (Restart).')
    expectAccessible(offerOne)
    expect(renderToStaticMarkup(<AgentOverview agent={{ ...agent, protocolVersion: 2 }} runtime={running} onRestart={noop} onStop={noop} />)).not.toContain('Set to offer')
    expect(renderToStaticMarkup(<AgentOverview agent={{ ...agent, protocolVersion: undefined }} runtime={running} onRestart={noop} onStop={noop} />)).not.toContain('Set to offer')
  })

  it('a failed start is said once: the Start that failed says no more than the runtime error above it', () => {
    const message = 'Gemini CLI exited with code 1 while starting. Unknown arguments: such-flag'
    const failed = { agentId: agent.id, name: agent.name, status: 'failed' as const, error: { kind: 'agent-exited', message, stderrTail: 'Unknown arguments: such-flag' } }
    const html = renderToStaticMarkup(<AgentOverview agent={agent} runtime={failed} problem={message} onRestart={noop} onStop={noop} />)
    expect(html.split(message)).toHaveLength(2)
    expect(renderToStaticMarkup(<AgentOverview agent={agent} runtime={failed} problem="Not started: the command was not confirmed." onRestart={noop} onStop={noop} />)).toContain(
      'Not started: the command was not confirmed.',
    )
  })

  it('a login the agent runs, while it waits, offers a way out; a key saved for the environment does not', () => {
    const view = (busy: string) =>
      renderToStaticMarkup(<LoginView agentName="Codex" methods={methods} keychainAvailable busy={busy} outcomes={{}} onLogin={noop} onOpenTerminal={noop} onLogout={noop} onCancelLogin={noop} />)
    const waiting = view('login')
    expect(waiting).toContain('Signing in…')
    expect(waiting).toContain('Cancel sign-in')
    expectAccessible(waiting)
    expect(view('key')).not.toContain('Cancel sign-in')
  })

  it('an agent that says it is signed in and still asked for a sign-in (a key its service turned down): the dialog says what that may mean', () => {
    const account = { signedIn: true, kind: 'api-key', label: 'OpenAI API key' }
    const asked = renderToStaticMarkup(<AccountLine agentName="Codex" account={account} refused />)
    expect(asked).toContain('Codex says it is signed in with <strong>OpenAI API key</strong>')
    expect(asked).toContain('may be wrong or expired')
    expect(renderToStaticMarkup(<AccountLine agentName="Codex" account={account} />)).not.toContain('may be wrong')
    expect(renderToStaticMarkup(<AccountLine agentName="Codex" account={{ signedIn: false, kind: 'unauthenticated', label: 'Not logged in' }} refused />)).not.toContain('may be wrong')
  })

  it('the login password field starts empty and is uncontrolled (no value attribute)', () => {
    const html = renderToStaticMarkup(
      <LoginView agentName="Claude" methods={methods} keychainAvailable busy={null} outcomes={{}} onLogin={noop} onOpenTerminal={noop} onLogout={noop} />,
    )
    const passwords = [...html.matchAll(/<input[^>]*type="password"[^>]*>/g)].map((m) => m[0])
    expect(passwords).toHaveLength(1)
    expect(passwords[0]).not.toMatch(/value="[^"]/)
    expect(html).toContain('Save and restart')
    expect(html).toContain('Open terminal')
    expect(html).toContain('aria-label="Sign in with Claude"')
  })

  it('a canary given as a login value or an outcome never comes back through the views', () => {
    // The views only ever receive outcome texts from main; the typed value goes out through onLogin only.
    const sent: (string | undefined)[] = []
    const html = renderToStaticMarkup(
      <LoginView agentName="Claude" methods={methods} keychainAvailable={false} busy={null} outcomes={{ key: { tone: 'ok', text: 'Saved.' } }} onLogin={(_, v) => sent.push(v)} onOpenTerminal={noop} onLogout={noop} />,
    )
    expect(html).not.toContain(CANARY)
    expect(html).toContain('will not store the key in plain text')
    expect(html).toMatch(/<input[^>]*type="password"[^>]*disabled=""/)
  })
})

describe('login', () => {
  it('offers Sign out only when a connection check said the agent can; not known yet, it offers the check instead', () => {
    const view = (logoutSupported?: boolean, extra: { onCheckConnection?: () => void; checkingConnection?: boolean; methods?: AuthMethodView[] } = {}) =>
      renderToStaticMarkup(
        <LoginView
          agentName="Claude"
          methods={[{ id: 'login', name: 'Log in with Claude', type: 'agent' }]}
          keychainAvailable
          busy={null}
          outcomes={{}}
          onLogin={noop}
          onOpenTerminal={noop}
          onLogout={noop}
          {...(logoutSupported === undefined ? {} : { logoutSupported })}
          {...extra}
        />,
      )
    expect(view(true)).toContain('>Sign out</button>')
    expect(view(false)).not.toContain('>Sign out</button>')
    expect(view(false)).toContain('does not offer signing out')
    // Unknown (no check yet): no button that main would refuse for an agent without logout.
    expect(view()).not.toContain('>Sign out</button>')
    expect(view()).toContain('Checking the connection tells whether Claude can sign out through Bosun.')
    expect(view()).not.toContain('Check connection</button>')
    expect(view(undefined, { onCheckConnection: noop })).toContain('>Check connection</button>')
    expect(view(undefined, { onCheckConnection: noop, checkingConnection: true })).toMatch(/<button[^>]*disabled=""[^>]*>Checking…<\/button>/)
    expect(view(true, { onCheckConnection: noop })).not.toContain('Check connection')
    // An agent that lists no way to sign in: nothing about signing out, unless a check said it can.
    const none = (logoutSupported?: boolean) => view(logoutSupported, { onCheckConnection: noop, methods: [] })
    expect(none()).not.toContain('sign out')
    expect(none()).not.toContain('Check connection')
    expect(none(false)).not.toContain('signing out')
    expect(none(true)).toContain('>Sign out</button>')
  })
})

describe('terminal and logs', () => {
  // Terminal sign-in runs in a PTY since the clientcaps branch: the output goes to xterm.js (a terminal emulator,
  // escape sequences act inside it; OSC 8 links are inert, tested in Chromium by agents-screen.browser.test.ts),
  // never into the page's markup. Typing a line is the 'Type a line' box (xterm's own input is 'Terminal input').
  it('never puts terminal output into markup: no escape, no link, only the emulator host', () => {
    const html = renderToStaticMarkup(
      <AuthTerminalView
        title="Setup"
        output={'\x1b[1mbold\x1b[0m \x1b]8;;https://evil.example\x07click\x1b]8;;\x07\r\ndone\x1b[2J'}
        exit={{ code: 3 }}
        onSend={noop}
        onClose={noop}
      />,
    )
    expect(html).toContain('<div class="xterm-host" role="log" aria-label="Terminal output"></div>')
    expect(html).not.toContain('bold')
    expect(html).not.toContain('\x1b')
    expect(html).not.toContain('<a')
    expect(html).not.toContain('evil.example')
    expect(html).toContain('Exited with code 3')
    expect(html).toMatch(/aria-label="Type a line"[^>]*disabled=""/)
  })

  it('keeps the log tail bounded, starting at a whole line', () => {
    const first = appendTail('', 'aaaa\nbbbb\n', 100)
    expect(first).toEqual({ text: 'aaaa\nbbbb\n', trimmed: false })
    const next = appendTail(first.text, 'cccc\ndddd\n', 12)
    expect(next.trimmed).toBe(true)
    expect(next.text).toBe('cccc\ndddd\n')
    expect(next.text.length).toBeLessThanOrEqual(12)
    expect(renderToStaticMarkup(<LogsView text={'x\x1b[31mred\x1b[0m'} truncated loading={false} />)).toContain('xred')
  })

  it('shows hidden and direction-changing characters in the log as markers, and keeps its lines', () => {
    const html = renderToStaticMarkup(<LogsView text={'first line\nError: \u202edlrow olleh\n\tat main'} truncated={false} loading={false} />)
    expect(html).toContain('title="U+202E RIGHT-TO-LEFT OVERRIDE"')
    expect(html).not.toContain('\u202e')
    expect(html).toContain('first line\nError: ')
    expect(html).toContain('\tat main')
  })
})

describe('inspector view', () => {
  it('shows a row per message with direction, kind, method, latency and size; the selection as JSON text', () => {
    const html = renderToStaticMarkup(
      <InspectorView
        {...inspectorProps(
          [message(1), message(2, { direction: 'in', kind: 'response', latencyMs: 412, bytes: 2048, sessionId: 'sess-1234567890abcdef' })],
          { selectedSeq: 1 },
        )}
      />,
    )
    expect(html).toContain('aria-label="Protocol messages"')
    expect(html.match(/<tr aria-selected=/g)).toHaveLength(2)
    expect(html).toContain('Sent to the agent')
    expect(html).toContain('Received from the agent')
    expect(html).toContain('412 ms')
    expect(html).toContain('2.0 KB')
    // Session ids whole for screen readers and as the tooltip (shown cut in their middle: their ends tell two apart).
    expect(html).toContain('title="sess-1234567890abcdef"')
    expect(html).toContain('<span class="sr-only">sess-1234567890abcdef</span>')
    // Pretty-printed JSON as text: markup inside the message is escaped.
    expect(html).toContain('&quot;note&quot;: &quot;&lt;b&gt;not markup&lt;/b&gt;&quot;')
    expect(html).not.toContain('<b>not markup</b>')
  })

  it('shows long session ids whole in the session filter, and in the rows on one line cut in their middle, their ends in view (whole as the tooltip)', () => {
    const a = 'claude/0198f3c2-a7e6-7d4c-4b1a-aaaaaaaaaaaa'
    const b = 'claude/0198f3c2-a7e6-7d4c-4b1a-bbbbbbbbbbbb'
    const html = renderToStaticMarkup(<InspectorView {...inspectorProps([message(1, { sessionId: a }), message(2, { sessionId: b })])} />)
    for (const id of [a, b]) {
      expect(html).toContain(`title="${id}"`)
      expect(html).toContain(`<span class="middle-cut-tail">${id.slice(-8)}</span>`)
      expect(html).toContain(`<span class="sr-only">${id}</span>`)
    }
    expect(html).toContain(`<option value="${a}">${a}</option>`)
    expect(html).toContain(`<option value="${b}">${b}</option>`)
  })

  it('shows no message of another session after the session filter changed', () => {
    const messages = [message(1, { sessionId: 's1' }), message(2, { sessionId: 's2' })]
    const bothSessions = renderToStaticMarkup(<InspectorView {...inspectorProps(messages, { selectedSeq: 1 })} />)
    expect(bothSessions).toContain('aria-label="Message 1 as JSON"')
    const otherSession = renderToStaticMarkup(<InspectorView {...inspectorProps(messages, { selectedSeq: 1, filter: { method: '', sessionId: 's2' } })} />)
    expect(otherSession).not.toContain('aria-label="Message 1 as JSON"')
    expect(otherSession).toContain('Pick a message to see it whole: click its row, or use ↑ and ↓ in the table.')
  })

  it('renders only the newest rows when there are many, and says so', () => {
    const many = Array.from({ length: ROW_LIMIT + 20 }, (_, i) => message(i + 1))
    const html = renderToStaticMarkup(<InspectorView {...inspectorProps(many)} />)
    expect(html.match(/<tr aria-selected=/g)).toHaveLength(ROW_LIMIT)
    expect(html).toContain(`${ROW_LIMIT + 20} messages · last ${ROW_LIMIT} shown`)
    expect(html).toContain(`>${ROW_LIMIT + 20}</td>`)
    expect(html).not.toContain('>20</td>')
  })

  it('marks messages from a connection check and shows a null id as empty', () => {
    const html = renderToStaticMarkup(<InspectorView {...inspectorProps([message(1, { origin: 'check', id: null, kind: 'notification' })])} />)
    expect(html).toMatch(/initialize<span class="inspector-origin"[^>]*>check<\/span>/)
    expect(html).not.toContain('>null<')
  })

  it('applies the filter it is given and says how many match', () => {
    const html = renderToStaticMarkup(
      <InspectorView
        {...inspectorProps([message(1), message(2, { method: 'session/prompt', sessionId: 's1' }), message(3, { method: 'session/update', sessionId: 's2' })], {
          filter: { method: 'SESSION/', sessionId: 's2' },
        })}
      />,
    )
    expect(html).toContain('1 of 3 messages')
    expect(html.match(/<tr aria-selected=/g)).toHaveLength(1)
    expect(html).toContain('session/update')
    expect(html).toContain(`value="${NO_SESSION}"`)
    expect(html).toMatch(/<option value="s1">s1<\/option><option value="s2" selected="">s2<\/option>/)
    expect(renderToStaticMarkup(<InspectorView {...inspectorProps([message(1)], { filter: { method: 'nope', sessionId: '' } })} />)).toContain('No message matches the filter.')
  })
})

describe('runtime actions and tools access', () => {
  it('offers Start when nothing runs and Restart/Stop when it does', () => {
    expect(runtimeActions('stopped')).toEqual({ start: true, restart: false, stop: false })
    expect(runtimeActions('ready')).toEqual({ start: false, restart: true, stop: true })
    expect(runtimeActions('crashed')).toEqual({ start: true, restart: false, stop: true })
  })

  it('a host without the tools calls answers not-available, and its events never fire', async () => {
    const tools = agentTools(agentToolsFreeApi())
    const result = await tools.checkAgentConnection({ agentId: 'a' })
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.error.kind).toBe('not-available')
    expect(typeof tools.onInspectorMessages(noop)).toBe('function')
  })

  it('a host with them is called with the argument as given', async () => {
    const calls: unknown[] = []
    const api = { ...agentToolsFreeApi(), getAgentLog: (arg: unknown) => (calls.push(arg), Promise.resolve({ ok: true, value: { text: 'x', truncated: false } })) }
    const result = await agentTools(api as unknown as BosunApi).getAgentLog({ agentId: 'a', maxBytes: 10 })
    expect(calls).toEqual([{ agentId: 'a', maxBytes: 10 }])
    expect(result).toEqual({ ok: true, value: { text: 'x', truncated: false } })
  })
})

/** A BosunApi with only the agents/session calls the screen's first render touches (none of the tools). */
function agentToolsFreeApi(): BosunApi {
  const pending = () => new Promise<never>(() => undefined)
  return {
    listAgentDefinitions: pending,
    listPresets: pending,
    getKeychainStatus: pending,
    getSnapshot: pending,
    onAgentDefinitionsChanged: () => noop,
    onAgentStatus: () => noop,
  } as unknown as BosunApi
}

describe('what Restart and Stop cut into', () => {
  it('counts the turns running and the requests waiting, per agent', async () => {
    const { activityOf } = await import('../../../renderer/screens/agents/AgentsScreen')
    const sessions = [
      { agentId: 'claude', turnState: 'running' as const, pending: 0 },
      { agentId: 'claude', turnState: 'requires_action' as const, pending: 2 },
      { agentId: 'claude', turnState: 'idle' as const, pending: 0 },
      { agentId: 'gemini', turnState: 'running' as const, pending: 1 },
    ]
    expect(activityOf(sessions, 'claude')).toEqual({ running: 2, waiting: 2 })
    expect(activityOf(sessions, 'codex')).toEqual({ running: 0, waiting: 0 })
  })

  it('says what happens to them', async () => {
    const { interruptionText } = await import('../../../renderer/components/agents/AgentOverview')
    expect(interruptionText('restart', 'Claude', { running: 2, waiting: 1 })).toBe(
      'Restarting Claude ends the turn running in 2 sessions, and drops 1 request waiting for your answer. Open sessions reconnect to the restarted agent where it can continue them.',
    )
    expect(interruptionText('stop', 'Claude', { running: 0, waiting: 3 })).toBe('Stopping Claude drops 3 requests waiting for your answer.')
    // The turn ended while the question was open: no sentence with nothing in it ("Stopping Claude .").
    expect(interruptionText('stop', 'Claude', { running: 0, waiting: 0 })).toBe('No session of Claude is at work now.')
  })

  it('shows Restart and Stop without a question until one is asked', () => {
    const html = renderToStaticMarkup(<AgentOverview agent={agent} runtime={{ agentId: 'claude', name: 'Claude', status: 'ready' } as never} onRestart={noop} onStop={noop} activity={{ running: 1, waiting: 0 }} />)
    expect(html).toContain('>Restart</button>')
    expect(html).not.toContain('alertdialog')
  })
})

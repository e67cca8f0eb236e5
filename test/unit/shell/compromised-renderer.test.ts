/**
 * A compromised renderer (issue 10 §2): the real Electron shell wiring (`runElectronApp` over the fake
 * `electron`) with the real composition root and the scripted agent as a child process. The "renderer"
 * calls EVERY contract call through `ipcMain.handle`, from the window's own main frame (an XSS has exactly
 * that), with hostile arguments, and then with generic junk. Without main's own confirmation (the fake's
 * native dialogs answer Cancel) no process starts, no rule is created, auto-approve stays off and nothing
 * is opened. With the person confirming in those dialogs (the fake records each one and its text), the
 * legitimate path works.
 *
 * Processes are detected where they happen: every agent command is wrapped in `/bin/sh -c` that appends
 * the agent's id to a marker file before it execs the scripted agent (check connection and terminal sign-in
 * included: they run the same command).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)
// Secrets stay in memory: a hostile `deleteAgentSecret` must not reach the developer's real keychain.
vi.mock('../../../main/secrets/secret-store', async (importOriginal) => ({
  ...(await importOriginal<typeof secretStoreModule>()),
  createKeytarSecretStore: (await import('../secrets/memory-secret-store')).createMemorySecretStore,
}))

import type * as secretStoreModule from '../../../main/secrets/secret-store'
import { createBosunServices } from '../../../main/app/create-services'
import { createMemoryLogger } from '../../../main/base/log'
import { runElectronApp, type ElectronApp } from '../../../main/shell/app'
import { callChannel, calls, eventChannel, events, type CallName, type CallResult, type EventName } from '../../../common/contract'
import type { PermissionRequestView, SessionAction } from '../../../common/session/types'
import { fake, invokeEvent, type FakeBrowserWindow, type FakeDialog } from '../../electron/fake-electron'
import { scriptedAgentCommand } from '../../agents/command'
import { RecordingSink } from '../../support/recording-sink'
import { must } from '../../support/must'

let electronApp: ElectronApp | undefined
let home: string
let workspace: string

beforeEach(() => {
  fake.reset()
  home = mkdtempSync(join(tmpdir(), 'bosun-hostile-'))
  workspace = mkdtempSync(join(tmpdir(), 'bosun-hostile-ws-'))
})
afterEach(async () => {
  await electronApp?.services.dispose()
  electronApp = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(workspace, { recursive: true, force: true })
})

const markerFile = () => join(home, 'spawned.log')
/** The ids of the agents whose command actually ran, in order. */
const spawned = (): string[] => (existsSync(markerFile()) ? readFileSync(markerFile(), 'utf8').trim().split('\n').filter(Boolean) : [])

/** `/bin/sh -c` appending `id` to the marker file, then exec'ing the scripted agent. */
function canaryCommand(id: string): { command: string; args: string[] } {
  const agent = scriptedAgentCommand('compromised-renderer')
  return { command: '/bin/sh', args: ['-c', 'echo "$0" >> "$1"; shift; exec "$@"', id, markerFile(), agent.command, ...agent.args] }
}

async function start() {
  // The victim was written outside Bosun (never confirmed): its first start must ask.
  const victim = { id: 'victim', name: 'Victim', ...canaryCommand('victim'), env: {}, secretEnv: [], defaultCwd: workspace }
  // The registry is a closed port on this machine: nothing goes to the network.
  mkdirSync(join(home, 'registry'), { recursive: true })
  writeFileSync(join(home, 'registry', 'settings.json'), JSON.stringify({ url: 'http://127.0.0.1:9/registry.json' }))
  writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [victim] }, null, 2))
  const agentsFile = readFileSync(join(home, 'agents.json'), 'utf8')
  electronApp = await runElectronApp({ createServices: createBosunServices, env: { BOSUN_HOME: home }, log: createMemoryLogger() })
  if (!electronApp) throw new Error('the app did not start')
  const window = fake.windows[0] as FakeBrowserWindow
  const sink = new RecordingSink()
  const names = new Map((Object.keys(events) as EventName[]).map((name) => [eventChannel(name), name]))
  const send = window.webContents.send.bind(window.webContents)
  window.webContents.send = (channel: string, ...args: unknown[]) => {
    send(channel, ...args)
    const name = names.get(channel)
    if (name) sink.emit(name, args[0] as never)
  }
  /** A call exactly as a script in the window's main frame can make it: any arguments, through `ipcMain.handle`. */
  const raw = async (name: CallName, ...args: unknown[]) => (await fake.invoke(callChannel(name), invokeEvent(window.webContents), ...args)) as CallResult<unknown>
  const call = async <T = unknown>(name: CallName, arg?: unknown) => (await raw(name, ...(arg === undefined ? [] : [arg]))) as CallResult<T>
  return { window, sink, raw, call, agentsFile }
}

/** What a hostile renderer would try with each call, given the ids it can see. */
interface Ids {
  sessionId: string
  requestId: string
  elicitationRequestId: string
}

/**
 * One entry per contract call (the type makes a new call a compile error until it is listed here, and the
 * test below checks the list against `calls` at run time too).
 */
const hostileArgs: { [N in CallName]: (ids: Ids) => unknown[] } = {
  appInfo: () => [undefined],
  getSnapshot: () => [undefined],
  newSession: () => [
    { agentId: 'victim', cwd: '/' },
    { agentId: 'victim', cwd: '/tmp' },
    { agentId: '../../bin/sh', cwd: '/' },
    // Added folders: relative, missing, a file, too many.
    { agentId: 'victim', cwd: '/tmp', additionalDirectories: ['../etc'] },
    { agentId: 'victim', cwd: '/tmp', additionalDirectories: ['/no/such/folder'] },
    { agentId: 'victim', cwd: '/tmp', additionalDirectories: ['/etc/passwd'] },
    { agentId: 'victim', cwd: '/tmp', additionalDirectories: Array.from({ length: 40 }, (_, i) => `/tmp/${i}`) },
  ],
  prompt: ({ sessionId }) => [{ sessionId, prompt: [{ type: 'text', text: 'work' }] }],
  cancel: ({ sessionId }) => [{ sessionId }],
  setMode: ({ sessionId }) => [{ sessionId, modeId: 'bypassPermissions' }],
  setModel: ({ sessionId }) => [{ sessionId, modelId: 'expensive-model' }, { sessionId, modelId: 'x'.repeat(10_000) }],
  setConfigOption: ({ sessionId }) => [{ sessionId, configId: 'approval', value: 'never-ask' }],
  closeSession: () => [{ sessionId: 'no-such-session' }],
  reopenSession: () => [{ sessionId: 'no-such-session' }],
  // Acks of batches never sent, far ahead, of sessions that do not exist, too many: main sends no more for them.
  sessionActionsApplied: ({ sessionId }) => [
    { applied: [{ sessionId, seq: Number.MAX_SAFE_INTEGER }] },
    { applied: [{ sessionId: 'no-such-session', seq: 1 }] },
    { applied: Array.from({ length: 2000 }, (_, i) => ({ sessionId: `s${i}`, seq: i })) },
    { applied: [{ sessionId, seq: -1 }] },
  ],
  dismissNotice: ({ sessionId }) => [
    { sessionId, noticeId: 'notice-0-0' },
    { sessionId: 'no-such-session', noticeId: 'notice-0-0' },
    { sessionId, noticeId: 'x'.repeat(10_000) },
  ],
  restartAgent: () => [{ agentId: 'victim' }],
  stopAgent: () => [{ agentId: 'victim' }],
  respondPermission: ({ requestId }) => [
    { requestId, optionId: 'allow-always' },
    { requestId, optionId: 'reject-always' },
    { requestId: 'victim#1:n:0', optionId: 'allow-always' },
  ],
  listPendingPermissions: () => [undefined],
  listRules: () => [undefined],
  revokeRule: () => [{ ruleId: 'no-such-rule' }],
  setAutoApprove: ({ sessionId }) => [{ sessionId, value: true }],
  getNotificationSettings: () => [undefined],
  setNotificationSettings: () => [{ enabled: false }],
  reportWindowState: () => [{ focused: false, visible: false }],
  respondElicitation: ({ elicitationRequestId }) => [{ elicitationRequestId, action: 'accept', content: { url: 'https://evil.example/' } }],
  openElicitationUrl: ({ elicitationRequestId }) => [{ elicitationRequestId }],
  retryElicitationUrl: ({ elicitationRequestId }) => [{ elicitationRequestId }],
  dismissElicitationUrl: ({ elicitationRequestId }) => [{ elicitationRequestId }],
  openLink: ({ sessionId }) => [
    { url: 'https://evil.example/payload', sessionId },
    { url: 'http://169.254.169.254/latest/meta-data/', sessionId },
    { url: 'http://127.0.0.1:8080/admin', sessionId },
    { url: 'javascript:alert(document.domain)', sessionId },
    { url: 'file:///etc/passwd', sessionId },
    // A link the agent did write, but in another session (or none).
    { url: 'https://docs.example.com/setup', sessionId: 'victim/other-session' },
  ],
  listRequestScopedElicitations: () => [undefined],
  listAgentDefinitions: () => [undefined],
  listPresets: () => [undefined],
  saveAgentDefinition: () => [
    // A new agent that is a shell; and the victim's command replaced by one.
    { draft: { name: 'Helper', command: '/bin/sh', argsText: `-c 'echo pwned >> "${markerFile()}"'`, env: [], secretEnv: [], defaultCwd: '' } },
    { draft: { id: 'victim', name: 'Victim', command: '/bin/sh', argsText: `-c 'echo pwned >> "${markerFile()}"'`, env: [], secretEnv: [], defaultCwd: '' } },
    // Same command, hostile environment.
    { draft: { id: 'victim', name: 'Victim', command: '/bin/sh', argsText: '-c true', env: [{ name: 'NODE_OPTIONS', value: '--require /tmp/evil.js' }], secretEnv: [], defaultCwd: '' } },
  ],
  removeAgentDefinition: () => [{ agentId: 'no-such-agent' }],
  validateAgentDefinition: () => [{ draft: { name: 'X', command: '/bin/sh', argsText: '-c id', env: [], secretEnv: [], defaultCwd: '' } }],
  deleteAgentSecret: () => [{ agentId: 'victim', name: 'API_KEY' }],
  getKeychainStatus: () => [undefined],
  checkAgentConnection: () => [{ agentId: 'victim' }],
  listAuthMethods: () => [{ agentId: 'victim' }],
  loginAgent: () => [
    { agentId: 'victim', methodId: 'terminal', value: '--require /tmp/evil.js' },
    { agentId: 'victim', methodId: 'login', keyName: 'LD_PRELOAD', value: '/tmp/evil.so' },
  ],
  // A name neither the definition lists nor the agent asked for: refused (agents.json unchanged, nothing started).
  saveAgentKey: () => [
    { agentId: 'victim', name: 'NODE_OPTIONS', value: '--require /tmp/evil.js' },
    { agentId: 'victim', name: 'OPENAI_API_KEY', value: 'sk-from-the-renderer' },
  ],
  listEnvironmentKeys: () => [{ agentId: 'victim' }],
  // Bosun's own environment has PATH and HOME: neither is one of the victim's keys.
  useEnvironmentKey: () => [
    { agentId: 'victim', name: 'PATH' },
    { agentId: 'victim', name: 'HOME' },
  ],
  startAuthTerminal: () => [{ agentId: 'victim', methodId: 'terminal' }],
  authTerminalInput: () => [{ terminalId: 'no-such-terminal', data: 'rm -rf ~\n' }],
  closeAuthTerminal: () => [{ terminalId: 'no-such-terminal' }],
  logoutAgent: () => [{ agentId: 'victim' }],
  cancelAgentLogin: () => [{ agentId: 'victim' }],
  getAgentLog: () => [{ agentId: 'victim' }],
  listInspectorMessages: () => [{ agentId: 'victim' }],
  exportInspector: () => [{ agentId: 'victim' }],
  clearInspector: () => [{ agentId: 'victim' }],
  watchInspector: () => [{ agentId: 'victim', watching: true }],
  // The ACP Registry: the registry address is this machine's closed port (written in `start`), so nothing leaves it.
  getRegistry: () => [{ refresh: true }, {}],
  getRegistryIcon: () => [{ registryId: 'victim' }, { registryId: '../../etc/passwd' }],
  installRegistryAgent: () => [{ registryId: 'evil-agent', kind: 'binary' }, { registryId: 'evil-agent', kind: 'npx' }],
  cancelRegistryInstall: () => [{ registryId: 'evil-agent' }],
  uninstallRegistryAgent: () => [{ registryId: 'victim' }],
  getRegistrySettings: () => [undefined],
  setRegistrySettings: () => [{ url: 'http://evil.example/registry.json' }, { url: 'file:///etc/passwd' }, { url: 'javascript:alert(1)' }],
  detectAgents: () => [undefined],
  addDetectedAgent: () => [{ key: 'claude' }, { key: '../../bin/sh' }, { key: '__proto__' }],
  // History: ids it cannot know, paths for ids; opening an agent's own session starts the agent (main asks).
  historyList: () => [{ includeArchived: true }],
  historyOpen: ({ sessionId }) => [{ sessionId }, { sessionId: '../../../etc/passwd' }],
  historyRename: ({ sessionId }) => [{ sessionId, title: '\u202eevil' }],
  historyArchive: ({ sessionId }) => [{ sessionId, archived: true }],
  historyDelete: ({ sessionId }) => [{ sessionId }, { sessionId: "' OR 1=1 --" }],
  historySearch: () => [{ query: '" OR 1=1 --' }, { query: '*', limit: 200 }],
  historyExport: ({ sessionId }) => [{ sessionId, format: 'json' }, { sessionId: '../../../etc/passwd', format: 'markdown' }],
  // An image the session does not hold (main writes only bytes it holds: nothing the page hands it), by a path for an id.
  saveImage: ({ sessionId }) => [{ sessionId, sha256: '0'.repeat(64) }, { sessionId: '../../../etc/passwd', sha256: 'f'.repeat(64) }],
  historyAgentSessions: () => [{ agentId: 'victim', cwd: '/' }, { agentId: '../../bin/sh', cwd: '/' }],
  historyCancelAgentSessions: () => [{ agentId: 'victim', cwd: '/' }, { agentId: '__proto__', cwd: '/' }],
  historyOpenAgentSession: () => [{ agentId: 'victim', acpSessionId: 'any', cwd: '/' }, { agentId: 'victim', acpSessionId: 'any', cwd: '/', additionalDirectories: ['/', '/etc'] }],
  // Client capabilities: a session it does not have (the capabilities would start its agent).
  promptCapabilities: ({ sessionId }) => [{ sessionId }, { sessionId: 'victim/../../etc' }],
  listSessionFiles: ({ sessionId }) => [{ sessionId }, { sessionId: '/etc' }],
  // MCP servers: a stdio server that is a shell writing the marker, then "Check" (which starts it).
  listMcpServers: () => [undefined],
  saveMcpServer: () => [
    { server: { id: 'evil', name: 'Evil', transport: 'stdio', enabled: true, agents: null, command: '/bin/sh', args: ['-c', `echo mcp >> "${markerFile()}"`] } },
    { server: { id: 'exfil', name: 'Exfil', transport: 'http', enabled: true, agents: null, url: 'https://evil.example/mcp' } },
    { server: { id: 'evil', name: 'Evil', transport: 'stdio', enabled: true, agents: null, command: '/bin/sh', secretEnv: ['API_KEY'] }, secrets: { API_KEY: 'x' } },
  ],
  removeMcpServer: () => [{ id: 'evil' }],
  checkMcpServer: () => [{ id: 'evil' }, { id: 'exfil' }],
  // v2 terminal/cancel: a v1 session, ids the session does not have, another session's: main sends nothing (E16).
  cancelTerminal: ({ sessionId }) => [
    { sessionId, terminalId: 'term-1' },
    { sessionId, terminalId: '__proto__' },
    { sessionId: 'victim/other-session', terminalId: 'term-1' },
  ],
  // v2 tool_call/cancel: a v1 session, ids the session does not have, another session's: main sends nothing (E15).
  cancelToolCall: ({ sessionId }) => [
    { sessionId, toolCallId: 'call-1' },
    { sessionId, toolCallId: '__proto__' },
    { sessionId: 'victim/other-session', toolCallId: 'call-1' },
  ],
  // Killing a v1 terminal: ids the session does not have, another session's: nothing is killed.
  killTerminal: ({ sessionId }) => [
    { sessionId, terminalId: 'term-1' },
    { sessionId, terminalId: '__proto__' },
    { sessionId: 'victim/other-session', terminalId: 'term-1' },
  ],
  listAgentMcpServers: () => [{ agentId: 'nobody' }],
  // Tool-call locations: files no tool call named, `..` and symlink tricks, a program, another session.
  openLocation: ({ sessionId }) => [
    { sessionId, path: '/etc/passwd' },
    { sessionId, path: `${workspace}/../../etc/passwd`, line: 1 },
    { sessionId, path: '/bin/sh' },
    { sessionId, path: 'notes.md' },
    { sessionId: 'victim/other-session', path: `${workspace}/notes.md` },
  ],
}

/** Junk every call also gets, whatever it expects: wrong types, prototype pollution, oversize, two arguments. */
const junk: unknown[][] = [
  [],
  [null],
  [42],
  ['x'.repeat(100_000)],
  [[]],
  [{}],
  [JSON.parse('{"__proto__": {"polluted": true}, "agentId": "victim", "sessionId": "s"}')],
  [{ constructor: { prototype: { polluted: true } } }],
  [{ agentId: 'victim' }, { extra: true }],
]

const isCancelFirst = (dialog: FakeDialog) => dialog.options.buttons?.[0] === 'Cancel' && dialog.options.defaultId === 0 && dialog.options.cancelId === 0

describe('a compromised renderer calling every contract call', { timeout: 60_000 }, () => {
  it('lists every call of the contract', () => {
    expect(Object.keys(hostileArgs).sort()).toEqual(Object.keys(calls).sort())
  })

  it('without main’s confirmation: no process starts, no rule, auto-approve off, nothing opens; every answer is a value', async () => {
    const { window, raw, call, agentsFile } = await start()
    const ids: Ids = { sessionId: 'victim/s-1', requestId: 'victim#1:n:1', elicitationRequestId: 'victim#1:n:2' }
    const answers: { name: string; result: unknown }[] = []
    for (const name of Object.keys(calls) as CallName[]) {
      process.stderr.write(`CALL ${name}\n`)
      for (const arg of hostileArgs[name](ids)) answers.push({ name, result: await call(name, arg) })
      for (const args of junk) answers.push({ name, result: await raw(name, ...args) })
    }
    // Nothing threw across IPC: every answer is `{ ok: … }`.
    for (const { name, result } of answers) expect(typeof (result as { ok?: unknown }).ok, name).toBe('boolean')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()

    expect(spawned()).toEqual([])
    expect(fake.openedExternally).toEqual([])
    expect(fake.openedPaths).toEqual([])
    expect(must(await call<unknown[]>('listRules'))).toEqual([])
    expect(existsSync(join(home, 'permission-rules.json'))).toBe(false)
    expect(must(await call<{ sessions: unknown[] }>('getSnapshot')).sessions).toEqual([])
    expect(must(await call<{ servers: unknown[] }>('listMcpServers')).servers).toEqual([])
    expect(existsSync(join(home, 'mcp-servers.json'))).toBe(false)
    expect(readFileSync(join(home, 'agents.json'), 'utf8')).toBe(agentsFile)

    // Main asked (and the person cancelled) in native dialogs on the main window: Cancel first, and the default.
    expect(fake.dialogs.length).toBeGreaterThan(0)
    for (const dialog of fake.dialogs) {
      expect(dialog.window).toBe(window)
      expect(isCancelFirst(dialog)).toBe(true)
    }
    const titles = new Set(fake.dialogs.map((d) => d.options.title))
    expect(titles).toEqual(new Set(['Bosun: Start an agent', 'Bosun: Add an agent', 'Bosun: Change an agent', 'Bosun: Add an MCP server']))
    // The MCP server's command is shown exactly too.
    const mcp = fake.dialogs.find((d) => d.options.title === 'Bosun: Add an MCP server' && d.options.detail?.includes('echo mcp'))
    expect(mcp?.options.detail).toContain('Program: "/bin/sh"\nArguments (2):\n  1. "-c"\n  2. "echo mcp >> \\"')
    expect(fake.dialogs.some((d) => d.options.detail === 'Transport: http\nAddress: "https://evil.example/mcp"\nHeaders: none')).toBe(true)
    // The replaced command is shown exactly, argument by argument.
    const change = fake.dialogs.find((d) => d.options.title === 'Bosun: Change an agent' && d.options.detail?.includes('pwned'))
    expect(change?.options.detail).toContain('Program: "/bin/sh"\nArguments (2):\n  1. "-c"\n  2. "echo pwned >> \\"')
    const env = fake.dialogs.find((d) => d.options.detail?.includes('NODE_OPTIONS'))
    expect(env?.options.detail).toContain('"NODE_OPTIONS" = "--require /tmp/evil.js"')
    // Every question and its answer is on record in Bosun's home.
    await electronApp!.services.dispose()
    const record = readFileSync(join(home, 'confirmations.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { confirmed: boolean; by: string; host: string })
    expect(record.length).toBe(fake.dialogs.length)
    expect(record.every((r) => !r.confirmed && r.by === 'person' && r.host === 'electron')).toBe(true)
  })

  it('with a running session, the widening calls still need main’s confirmation; granted, the legitimate path works', async () => {
    const { sink, call } = await start()
    // The person confirms the victim's first start, and nothing else.
    fake.answerDialog = (dialog) => (dialog.options.title === 'Bosun: Start an agent' && dialog.options.message.includes('"Victim"') ? 1 : 0)
    const { sessionId } = must(await call<{ sessionId: string }>('newSession', { agentId: 'victim', cwd: workspace }))
    // (Offered v2 first, the v1 agent may be started twice to settle the version: count, don't assume one.)
    const started = spawned()
    expect(new Set(started)).toEqual(new Set(['victim']))

    const requested = (a: SessionAction): a is Extract<SessionAction, { type: 'permission_requested' }> => a.type === 'permission_requested'
    const turn = call<{ stopReason: string | null }>('prompt', { sessionId, prompt: [{ type: 'text', text: 'work' }] })
    const batch = await sink.next('sessionActions', (b) => b.sessionId === sessionId && b.actions.some(requested))
    const request: PermissionRequestView = batch.actions.find(requested)!.request

    // The same hostile calls, now with live ids.
    const ids: Ids = { sessionId, requestId: request.requestId, elicitationRequestId: 'none' }
    const widening: CallName[] = ['respondPermission', 'setAutoApprove', 'openLink', 'saveAgentDefinition', 'startAuthTerminal', 'openLocation']
    for (const name of widening) {
      for (const arg of hostileArgs[name](ids)) {
        expect((await call(name, arg)).ok, `${name} ${JSON.stringify(arg).slice(0, 120)}`).toBe(false)
        expect(spawned(), name).toEqual(started)
      }
    }
    expect(spawned()).toEqual(started)
    expect(must(await call<unknown[]>('listRules'))).toEqual([])
    expect(must(await call<PermissionRequestView[]>('listPendingPermissions')).map((p) => p.requestId)).toEqual([request.requestId])
    const snapshot = must(await call<{ sessions: { sessionId: string; autoApprove: boolean }[] }>('getSnapshot'))
    expect(snapshot.sessions.find((s) => s.sessionId === sessionId)?.autoApprove).toBe(false)
    expect(fake.openedExternally).toEqual([])
    const asked = fake.dialogs.map((d) => d.options.title)
    expect(asked).toContain('Bosun: Always allow')
    expect(asked).toContain('Bosun: Always reject')
    expect(asked).toContain('Bosun: Turn on auto-approve')

    // Granted: the person confirms in main's dialogs.
    fake.confirmDialogs()
    const before = fake.dialogs.length
    must(await call('respondPermission', { requestId: request.requestId, optionId: 'allow-always' }))
    expect(must(await turn).stopReason).toBe('end_turn')
    expect(fake.dialogs.slice(before).map((d) => [d.options.title, d.options.detail])).toEqual([
      // The folder and what the rule means first, then the agent's words (its request, a command), which a bound may cut.
      ['Bosun: Always allow', 'Session folder: ' + JSON.stringify(workspace) + '\nWhere Bosun cannot tell such requests apart, the rule only lasts for this session.\nThe agent is told this answer too and may keep a rule of its own, which Forget in Settings does not remove.\nRequest: "Run npm test"'],
    ])
    await sink.next('rulesChanged', (p) => p.rules.length === 1)
    expect(must(await call<unknown[]>('listRules'))).toHaveLength(1)

    must(await call('setAutoApprove', { sessionId, value: true }))
    const after = must(await call<{ sessions: { sessionId: string; autoApprove: boolean }[] }>('getSnapshot'))
    expect(after.sessions.find((s) => s.sessionId === sessionId)?.autoApprove).toBe(true)

    // A link the agent wrote in this session opens (the renderer's consent dialog is in-app; main vouches for the link).
    expect(must(await call('openLink', { url: 'https://docs.example.com/faq', sessionId }))).toEqual({ openedBy: 'main', href: 'https://docs.example.com/faq' })
    expect(fake.openedExternally).toEqual(['https://docs.example.com/faq'])
    expect(fake.openedPaths).toEqual([])

    // A file a tool call of this session named opens through the shell (main checked it); nothing else did.
    writeFileSync(join(workspace, 'notes.md'), '# Notes\n')
    expect(must(await call('openLocation', { sessionId, path: join(workspace, 'notes.md'), line: 3 }))).toEqual({ path: realpathSync(join(workspace, 'notes.md')) })
    expect(fake.openedPaths).toEqual([realpathSync(join(workspace, 'notes.md'))])

    // A new agent, confirmed when saved, starts without asking again.
    const second = canaryCommand('second')
    const argsText = second.args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
    const saved = must(
      await call<{ agent: { id: string } }>('saveAgentDefinition', {
        draft: { name: 'Second', command: second.command, argsText, env: [], secretEnv: [], defaultCwd: workspace },
      }),
    )
    const saveDialog = fake.dialogs.at(-1)!
    expect(saveDialog.options.title).toBe('Bosun: Add an agent')
    expect(saveDialog.options.detail).toContain(`  4. ${JSON.stringify(markerFile())}`)
    const dialogsBefore = fake.dialogs.length
    must(await call('newSession', { agentId: saved.agent.id, cwd: workspace }))
    expect(fake.dialogs.length).toBe(dialogsBefore)
    expect(spawned()).toContain('second')

    // An MCP server, confirmed when added, is saved; switching it off (nothing it runs changed) does not ask again.
    const server = { id: 'tools', name: 'Tools', transport: 'stdio', enabled: true, agents: null, command: '/bin/true', args: ['--serve'] }
    must(await call('saveMcpServer', { server }))
    expect(fake.dialogs.at(-1)!.options.title).toBe('Bosun: Add an MCP server')
    const mcpDialogs = fake.dialogs.length
    must(await call('saveMcpServer', { server: { ...server, enabled: false } }))
    expect(fake.dialogs.length).toBe(mcpDialogs)
    must(await call('saveMcpServer', { server: { ...server, args: ['--serve', '--all'] } }))
    expect(fake.dialogs.at(-1)!.options.title).toBe('Bosun: Change an MCP server')
    expect(must(await call<{ servers: { args?: string[] }[] }>('listMcpServers')).servers.map((s) => s.args)).toEqual([['--serve', '--all']])
  })
})

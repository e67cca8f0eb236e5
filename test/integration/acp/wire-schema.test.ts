/**
 * Strict in what Bosun sends (checklist A4, B1, C2, C4, E1, E13, E15, E16, F1, G1, G18, G22–G33, I2, I6): a tour of the
 * scripted scenarios through the composition root, v1 and v2, records every line Bosun writes to the agents
 * (requests, notifications, and its answers to the agents' requests) and validates each against the SDK's JSON
 * schema of the negotiated version, with no field the schema does not have (test/support/acp-wire-schema.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { SessionState } from '../../../common/session/types'
import type { Scenario } from '../../agents/scenario'
import { checkWireLog } from '../../support/acp-wire-schema'
import { tinyMcpServer, webMcpServer } from '../../support/mcp-servers'
import { must, servicesPerTest, watchSession, type TestServices } from '../../support/services'
import { canCancelToolCall, toolCallOf } from '../../../common/session/background'

const startServices = servicesPerTest()
const logs = mkdtempSync(join(tmpdir(), 'bosun-wire-'))
afterAll(() => rmSync(logs, { recursive: true, force: true }))

const here = resolve(__dirname)
const integration = resolve(here, '..')

interface Visit {
  /** Prompt texts, each run to its end; `!` first: Stop once the agent asks something (or at once if it asks nothing). */
  prompts: string[]
}

/** Scenario → what the tour sends it. */
const TOUR: Record<string, { scenario: string; v1?: Visit; v2?: Visit; both?: Visit }> = {
  conformance: {
    scenario: 'conformance',
    both: { prompts: ['reject', 'unknown-field', 'plan-cancelled', '!stop-elicitations', 'error-after-output'] },
    v1: { prompts: ['order'] },
    v2: { prompts: ['order-v2', 'subagent-v2'] },
  },
  permissions: {
    scenario: join(integration, 'permissions', 'permissions.json'),
    both: { prompts: ['v1', 'v2', 'command', 'unknown', 'unannounced', 'empty', 'bad', '!three', 'rule-first', 'mcp-first', 'fetch-first'] },
  },
  elicitation: {
    scenario: join(integration, 'elicitation', 'elicitation.json'),
    both: { prompts: ['form', 'form-alias-mode', 'nested', 'impossible', 'unknown-session', 'cancel'] },
  },
  wire: {
    scenario: 'wire',
    both: { prompts: ['string-id', 'cancel-request', 'throwing-handler', 'unknown-method', 'batch', 'not-object', 'garbage', 'elicitation', 'unknown-update'] },
    v1: { prompts: ['permission-v1'] },
    v2: { prompts: ['permission-v2'] },
  },
  fs: {
    scenario: 'fs',
    v1: { prompts: ['read', 'read-window', 'read-missing', 'read-relative', 'read-binary', 'read-in-calls', 'write', 'write-crlf', 'write-in-tool', 'write-then-replace', 'write-binary'] },
  },
  terminals: {
    scenario: 'terminals',
    v1: { prompts: ['immediate', 'exit-status', 'release', 'truncate', 'env', '!wait-cancelled'] },
  },
  cards: { scenario: 'e2e-cards', both: { prompts: ['bash', 'edit', 'read', 'failed-fence'] } },
  background: { scenario: 'v2-background', v2: { prompts: ['start'] } },
  toolcalls: { scenario: 'v2-tool-call-cancel', v2: { prompts: ['withdraw'] } },
}

/** An agent that takes everything optional Bosun may send: MCP servers, images and embedded files, list/close/delete, more folders. */
function extrasScenario(v2: boolean): Scenario {
  const capabilities = v2
    ? { session: { prompt: { image: {}, embeddedContext: {} }, mcp: { stdio: {}, http: {} }, delete: {}, additionalDirectories: {} } }
    : {
        loadSession: true,
        promptCapabilities: { image: true, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, close: {}, delete: {}, resume: {}, additionalDirectories: {} },
      }
  return {
    initialize: { capabilities },
    session: { list: [{ sessionId: 'elsewhere-1', title: 'Started elsewhere' }], replay: [{ type: 'text', text: 'earlier' }] },
    prompts: { default: [{ type: 'report_prompt' }] },
  }
}

const MCP_SERVERS = [tinyMcpServer, webMcpServer]
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

function visitsFor(v2: boolean) {
  return Object.entries(TOUR).flatMap(([id, entry]) => {
    const prompts = [...(entry.both?.prompts ?? []), ...((v2 ? entry.v2 : entry.v1)?.prompts ?? [])]
    return prompts.length > 0 ? [{ id, scenario: entry.scenario, prompts }] : []
  })
}

async function stateOf({ handlers }: TestServices, sessionId: string): Promise<SessionState | undefined> {
  return must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)
}

/**
 * Runs one prompt to its end, answering what the agent asks on the way: permissions in turn with each offered
 * option and with a dismissal, elicitations with accept (then decline if Bosun refuses the empty answer) and cancel.
 * With `stop`, Stop is pressed instead once the agent asks something (or the turn is running and asks nothing).
 */
async function runPrompt(services: TestServices, sessionId: string, text: string, stop: boolean, counter: { n: number }): Promise<void> {
  const turn = services.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] })
  let done = false
  void turn.finally(() => (done = true))
  let stopped = false
  while (!done) {
    const state = await stateOf(services, sessionId)
    const seq = state?.seq ?? 0
    const pendingPermissions = must(await services.handlers.listPendingPermissions(undefined)).filter((p) => p.sessionId === sessionId)
    const pendingElicitations = Object.values(state?.elicitations ?? {}).filter((e) => e.status === 'pending')
    if (stop && !stopped && (pendingPermissions.length > 0 || pendingElicitations.length > 0 || state?.turn.state === 'running')) {
      stopped = true
      must(await services.handlers.cancel({ sessionId }))
    } else if (!stop) {
      for (const permission of pendingPermissions) {
        const pick = counter.n++ % (permission.options.length + 1)
        await services.handlers.respondPermission({ requestId: permission.requestId, optionId: permission.options[pick]?.optionId ?? null })
      }
      for (const elicitation of pendingElicitations) {
        if (counter.n++ % 3 === 2) {
          await services.handlers.respondElicitation({ elicitationRequestId: elicitation.elicitationRequestId, action: 'cancel' })
          continue
        }
        const accepted = await services.handlers.respondElicitation({ elicitationRequestId: elicitation.elicitationRequestId, action: 'accept', content: {} })
        if (!accepted.ok) await services.handlers.respondElicitation({ elicitationRequestId: elicitation.elicitationRequestId, action: 'decline' })
      }
    }
    await Promise.race([turn, services.sink.next('sessionActions', (b) => b.sessionId === sessionId && b.seq > seq)])
  }
  await turn
}

describe.each([
  ['v1', false],
  ['v2', true],
])('every line Bosun sends a %s agent validates against the SDK schema', (label, v2) => {
  it('a tour of the scripted scenarios: sessions, prompts, answers to permissions, elicitations, fs and terminals, Stop, config, reattach and close', { timeout: 240_000 }, async () => {
    const visits = visitsFor(v2)
    const logFile = (id: string) => join(logs, `${label}-${id}.ndjson`)
    const agents = [
      ...visits.map(({ id, scenario }) => ({ id, name: id, scenario, v2, extraArgs: ['--wire-log', logFile(id)] })),
      { id: 'config', name: 'config', scenario: v2 ? 'session-defaults-v2' : 'session-defaults-v1', v2, extraArgs: ['--wire-log', logFile('config')] },
      { id: 'resume', name: 'resume', scenario: 'conformance-resume', v2, extraArgs: ['--wire-log', logFile('resume')] },
      ...(v2 ? [] : [{ id: 'modes', name: 'modes', scenario: 'session-defaults-modes', v2, extraArgs: ['--wire-log', logFile('modes')] }]),
      { id: 'auth', name: 'auth', scenario: v2 ? 'auth-v2' : 'auth-v1', v2, extraArgs: ['--wire-log', logFile('auth')] },
    ]
    const extras = join(logs, `${label}-extras.json`)
    writeFileSync(extras, JSON.stringify(extrasScenario(v2)))
    agents.push({ id: 'extras', name: 'extras', scenario: extras, v2, extraArgs: ['--wire-log', logFile('extras')] })
    const services = await startServices(agents, (home) => writeFileSync(join(home.home, 'mcp-servers.json'), JSON.stringify({ version: 1, servers: MCP_SERVERS })))
    const counter = { n: 0 }
    for (const { id, prompts } of visits) {
      const { sessionId } = must(await services.handlers.newSession({ agentId: id, cwd: services.workspace }))
      for (const prompt of prompts) {
        const stop = prompt.startsWith('!')
        await runPrompt(services, sessionId, stop ? prompt.slice(1) : prompt, stop, counter)
      }
      must(await services.handlers.closeSession({ sessionId }))
    }

    // Config options and modes (v1), the boolean option's `type`, and v2's `type: "id"`.
    const config = must(await services.handlers.newSession({ agentId: 'config', cwd: services.workspace }))
    const configState = (await stateOf(services, config.sessionId))!
    for (const option of configState.configOptions ?? []) {
      const value = option.type === 'boolean' ? option.currentValue !== true : option.options.find((o) => o.value !== option.currentValue)?.value
      if (value !== undefined) must(await services.handlers.setConfigOption({ sessionId: config.sessionId, configId: option.id, value }))
    }
    await runPrompt(services, config.sessionId, 'hello', false, counter)
    if (!v2) {
      const modes = must(await services.handlers.newSession({ agentId: 'modes', cwd: services.workspace }))
      const mode = (await stateOf(services, modes.sessionId))!.modes?.availableModes.at(-1)?.id
      must(await services.handlers.setMode({ sessionId: modes.sessionId, modeId: mode! }))
    }

    // Reattach (v1 session/load, v2 session/resume) after a restart, then a prompt on it.
    const resumed = must(await services.handlers.newSession({ agentId: 'resume', cwd: services.workspace }))
    must(await services.handlers.restartAgent({ agentId: 'resume' }))
    await runPrompt(services, resumed.sessionId, 'hello', false, counter)
    // Sign in after session/new asked for it (v1 `authenticate`, v2 `auth/login`), then a session.
    expect((await services.handlers.newSession({ agentId: 'auth', cwd: services.workspace })).ok).toBe(false)
    must(await services.handlers.loginAgent({ agentId: 'auth', methodId: 'login' }))
    must(await services.handlers.newSession({ agentId: 'auth', cwd: services.workspace }))

    // MCP servers and a second folder on session/new; an image, a link and an embedded file in a prompt; the agent's
    // own sessions listed (session/list), one opened (v1 session/load, v2 session/resume with replay) and closed.
    const more = join(services.workspace, 'more')
    mkdirSync(more)
    writeFileSync(join(services.workspace, 'notes.md'), 'some notes\n')
    const rich = must(await services.handlers.newSession({ agentId: 'extras', cwd: services.workspace, additionalDirectories: [more] }))
    // The link goes out as an embedded `resource`: this agent takes embedded context.
    const blocks = [
      { type: 'text' as const, text: 'look at @notes.md' },
      { type: 'resource_link' as const, uri: pathToFileURL(join(services.workspace, 'notes.md')).href, name: 'notes.md', mimeType: 'text/markdown' },
      { type: 'image' as const, mimeType: 'image/png', data: PNG },
    ]
    must(await services.handlers.prompt({ sessionId: rich.sessionId, prompt: blocks }))
    must(await services.handlers.historyAgentSessions({ agentId: 'extras', cwd: services.workspace }))
    const opened = must(await services.handlers.historyOpenAgentSession({ agentId: 'extras', acpSessionId: 'elsewhere-1', cwd: services.workspace, title: 'Started elsewhere' }))
    await runPrompt(services, opened.sessionId, 'hello', false, counter)
    must(await services.handlers.closeSession({ sessionId: opened.sessionId }))

    if (v2) {
      // terminal/cancel for a terminal that advertises it (E16).
      const background = must(await services.handlers.newSession({ agentId: 'background', cwd: services.workspace }))
      await runPrompt(services, background.sessionId, 'start', false, counter)
      must(await services.handlers.cancelTerminal({ sessionId: background.sessionId, terminalId: 'dev' }))
      // tool_call/cancel for a tool call that advertises it (E15); the turn waits for it.
      const toolCalls = must(await services.handlers.newSession({ agentId: 'toolcalls', cwd: services.workspace }))
      const turn = services.handlers.prompt({ sessionId: toolCalls.sessionId, prompt: [{ type: 'text', text: 'build' }] })
      await watchSession(services, toolCalls.sessionId).until((st) => canCancelToolCall(toolCallOf(st, 'call-build')))
      must(await services.handlers.cancelToolCall({ sessionId: toolCalls.sessionId, toolCallId: 'call-build' }))
      must(await turn)
    }
    await services.services.dispose()

    const all = agents.filter(({ id }) => existsSync(logFile(id))).map(({ id }) => checkWireLog(v2 ? 2 : 1, readFileSync(logFile(id), 'utf8')))
    const methods = new Set(all.flatMap((r) => [...r.methods]))
    // The tour reached what it is for (a renamed prompt would silently shrink it).
    expect([...methods].sort()).toEqual(
      expect.arrayContaining([
        'initialize',
        'session/new',
        'session/prompt',
        'session/cancel',
        'session/set_config_option',
        'session/list',
        'session/close',
        '→ session/request_permission',
        '→ elicitation/create',
        ...(v2 ? ['session/resume', 'auth/login', 'terminal/cancel', 'tool_call/cancel'] : ['session/load', 'authenticate', 'session/set_mode', '→ fs/read_text_file', '→ fs/write_text_file', '→ terminal/create', '→ terminal/output', '→ terminal/wait_for_exit', '→ terminal/release']),
      ]),
    )
    expect(all.reduce((n, r) => n + r.sent, 0)).toBeGreaterThan(100)
    // The optional shapes went out to the agent that takes them.
    const extrasSent = readFileSync(logFile('extras'), 'utf8')
    for (const shape of ['"mcpServers":[{', '"additionalDirectories":["', '"type":"image"', '"type":"resource"', '"type":"http"']) {
      expect(extrasSent).toContain(shape.replaceAll('"', '\\"'))
    }
    expect(all.flatMap((r) => r.problems)).toEqual([])
  })
})

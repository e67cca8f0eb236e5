/**
 * A scripted ACP agent for tests and e2e, written with the official SDK's agent API.
 *
 *   node --import tsx test/agents/scripted-agent.ts --scenario <file.json> [--v2]
 *
 * Normal traffic goes through the SDK (v1 by default, the v2 draft with `--v2`); `raw_line` steps
 * write malformed input straight to stdout. See scenario.ts for the format.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { createTwoFilesPatch } from 'diff'
import * as acpV1 from '@agentclientprotocol/sdk'
import * as acpV2 from '@agentclientprotocol/sdk/experimental/v2'
import type { RequestElicitation, Scenario, Step } from './scenario'

type Json = Record<string, unknown>

/** The slice of the SDK's AgentApp we use, typed loosely: the scenario sends raw shapes on purpose. */
interface LooseContext {
  params: Json
  client: LooseClient
  requestId?: unknown
}
interface LooseClient {
  request(method: string, params: unknown): Promise<unknown>
  notify(method: string, params: unknown): Promise<void>
}
interface LooseApp {
  onRequest(method: string, handler: (context: LooseContext) => unknown): LooseApp
  /** A method the SDK's schema does not know (its own params parser). */
  onRequest(method: string, params: (raw: unknown) => Json, handler: (context: LooseContext) => unknown): LooseApp
  onNotification(method: string, handler: (context: LooseContext) => unknown): LooseApp
  connect(stream: unknown): { closed: Promise<void> }
}

const args = process.argv.slice(2)
const scenarioPath = args[args.indexOf('--scenario') + 1]
if (!args.includes('--scenario') || !scenarioPath) {
  process.stderr.write('usage: scripted-agent.ts --scenario <file.json> [--v2]\n')
  process.exit(2)
}
const v2 = args.includes('--v2')
/** `--dump-session-new <file>`: each session/new's params are appended to the file as a JSON line (what the agent received). */
const dumpSessionNew = args.includes('--dump-session-new') ? args[args.indexOf('--dump-session-new') + 1] : undefined
/**
 * `--wire-log <file>`: every line the client sends (`in`) and the agent writes (`out`) is appended to the file as
 * `{"dir","line"}` JSON, in the order this process saw them (the strict-send test validates the `in` lines).
 */
const wireLog = args.includes('--wire-log') ? args[args.indexOf('--wire-log') + 1] : undefined
const scenario = JSON.parse(readFileSync(scenarioPath, 'utf8')) as Scenario
const log = (text: string) => process.stderr.write(text.endsWith('\n') ? text : text + '\n')

if (scenario.initialize?.exitAtStart) {
  const { code, stderr } = scenario.initialize.exitAtStart
  if (stderr) log(stderr)
  process.exit(code)
}

// ---- stdio: our own streams so raw lines and SDK messages share one ordered stdout ----------

const rawReplyIds = new Set<string | number>()
let rawReplyWaiter: ((reply: unknown) => void) | undefined
/** Replies to requests the agent wrote raw (outside the SDK), by id. */
const rawRequestWaiters = new Map<string | number, (reply: Json) => void>()

function watchIncoming(text: string): void {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    let message: Json
    try {
      message = JSON.parse(line) as Json
    } catch {
      continue
    }
    if (typeof message !== 'object' || message === null || 'method' in message) continue
    const id = message.id as string | number | null
    const requestWaiter = id !== null ? rawRequestWaiters.get(id) : undefined
    if (id !== null && requestWaiter) {
      rawRequestWaiters.delete(id)
      requestWaiter(message)
      continue
    }
    if (id === null || rawReplyIds.has(id)) {
      log(`RAW-REPLY ${JSON.stringify(message)}`)
      const waiter = rawReplyWaiter
      rawReplyWaiter = undefined
      waiter?.(message)
    }
  }
}

const wirePending = { in: '', out: '' }
function recordWire(dir: 'in' | 'out', chunk: Uint8Array | string): void {
  if (!wireLog) return
  const text = wirePending[dir] + (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
  const lines = text.split('\n')
  wirePending[dir] = lines.pop() ?? ''
  const complete = lines.filter((line) => line.trim() !== '')
  if (complete.length > 0) appendFileSync(wireLog, complete.map((line) => JSON.stringify({ dir, line }) + '\n').join(''))
}

let pendingText = ''
const decoder = new TextDecoder()
const input = new ReadableStream<Uint8Array>({
  start(controller) {
    process.stdin.on('data', (chunk: Buffer) => {
      recordWire('in', chunk)
      pendingText += decoder.decode(chunk, { stream: true })
      const cut = pendingText.lastIndexOf('\n')
      if (cut >= 0) {
        watchIncoming(pendingText.slice(0, cut))
        pendingText = pendingText.slice(cut + 1)
      }
      controller.enqueue(new Uint8Array(chunk))
    })
    process.stdin.on('end', () => {
      controller.close()
      // The client went away: nothing left to do.
      process.exit(0)
    })
  },
})
const output = new WritableStream<Uint8Array>({
  write(chunk) {
    recordWire('out', chunk)
    return new Promise<void>((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())))
  },
})
function writeRaw(line: string): Promise<void> {
  recordWire('out', line + '\n')
  return new Promise((resolve) => process.stdout.write(line + '\n', () => resolve()))
}

// ---- state ------------------------------------------------------------------------------------

let authenticated = false
/** The sessions built (new, loaded or resumed) while signed in: with `authOnlyForLaterSessions`, only these take prompts. */
const signedInSessions = new Set<string>()
let sessionCounter = 0
let messageCounter = 0
/** Message ids must stay unique across restarts of the agent (a client keeps the transcript), as a real agent's would. */
const processTag = `${process.pid.toString(36)}${Date.now().toString(36)}`
const cancelWaiters = new Map<string, () => void>()
const cancelled = new Set<string>()
const sessionConfig = new Map<string, unknown[]>()
/** The current model of each v1 session that the scenario gives models (what set_model chose, for a later load). */
const sessionModel = new Map<string, unknown>()
/** Each session's cwd (for `{cwd}` in client_request params) and its last terminal id (`{terminalId}`). */
const sessionCwd = new Map<string, string>()
const lastTerminal = new Map<string, string>()
const lastPrompt = new Map<string, unknown>()
/** Per session, the JSON-RPC id of the session/prompt request being answered. */
const promptRequestIds = new Map<string, unknown>()

/** Answers to request-scoped elicitations, reported as text in the next new session. */
const pendingReports: string[] = []
let rawRequestCounter = 0
/** v2: each session's background work (`background` steps), carried by every state_update of the session. */
const sessionBackground = new Map<string, Record<string, unknown>[] | null>()
/** v2: sessions whose turn is running (a cancelled terminal's idle snapshot is sent only when none is). */
const runningSessions = new Set<string>()
const cancelledTerminals = new Set<string>()
/** v2 tool calls whose `tool_call/cancel` was accepted (`<sessionId>\n<toolCallId>`), and the turns waiting for one. */
const cancelledToolCalls = new Set<string>()
const toolCallCancelWaiters = new Map<string, () => void>()

const sdk = v2 ? acpV2 : acpV1
const app = (sdk.agent({ name: 'scripted-agent' }) as unknown) as LooseApp

app.onRequest('initialize', async ({ params, requestId }) => {
  const behaviour = scenario.initialize ?? {}
  if (behaviour.delayMs) await delay(behaviour.delayMs)
  if (behaviour.untilFile) while (!existsSync(behaviour.untilFile)) await delay(50)
  const elicit = scenario.elicitDuring?.initialize
  if (elicit) await elicitForRequest('initialize', requestId, elicit, (scoped) => requestRaw('elicitation/create', scoped))
  if (behaviour.failWith) throw new acpV1.RequestError(behaviour.failWith.code, behaviour.failWith.message, behaviour.failWith.data)
  const offered = params.protocolVersion
  if (typeof offered === 'number' && behaviour.rejectVersions?.includes(offered)) {
    throw new acpV1.RequestError(behaviour.rejectCode ?? -32600, `Unsupported protocol version ${offered}`)
  }
  log(`INITIALIZE ${JSON.stringify(params)}`)
  const info = behaviour.agentInfo ?? { name: 'scripted-agent', title: 'Scripted agent', version: '1.0.0' }
  const result: Json = v2
    ? { protocolVersion: behaviour.protocolVersion ?? 2, info, capabilities: behaviour.capabilities ?? { session: {} } }
    : { protocolVersion: behaviour.protocolVersion ?? 1, agentInfo: info, agentCapabilities: behaviour.capabilities ?? { loadSession: true } }
  if (behaviour.authMethods) result.authMethods = behaviour.authMethods
  // After the answer, as claude-agent-acp pushes the identity it probed (never before the response).
  const status = behaviour.authStatus
  if (status) {
    setImmediate(() => {
      const push = (authStatus: unknown) => writeRaw(JSON.stringify({ jsonrpc: '2.0', method: '_auth/status_update', params: { authStatus } }))
      void push(authenticated ? status.signedIn : status.signedOut)
      const flood = status.flood ?? 0
      // Each one different (a key named by its number), then `signedIn` once, last.
      for (let i = 1; i < flood; i++) void push(i % 2 === 0 ? status.signedOut : { kind: 'api_key', label: `Key ${i}` })
      if (flood > 0) void push(status.signedIn)
    })
  }
  return { ...result, ...behaviour.extra }
})

const login = async ({ client, requestId, params }: LooseContext) => {
  log(`LOGIN ${JSON.stringify(params)}`)
  const loginKey = scenario.initialize?.loginKey
  if (loginKey !== undefined) {
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : {}
    if (meta['api-key'] !== loginKey) throw new acpV1.RequestError(-32000, 'API key is missing or not valid.')
  }
  if (scenario.initialize?.loginHangs) await new Promise(() => {})
  const gatewayHeader = scenario.initialize?.loginGatewayHeader
  if (gatewayHeader !== undefined && isRecord(params) && params.methodId === 'gateway') {
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : {}
    const gateway = isRecord(meta.gateway) ? meta.gateway : {}
    const headers = isRecord(gateway.headers) ? gateway.headers : {}
    if (typeof gateway.baseUrl !== 'string' || !/^https?:\/\//.test(gateway.baseUrl)) throw new acpV1.RequestError(-32602, 'Malformed gateway payload: baseUrl is required')
    if (typeof headers[gatewayHeader] !== 'string') throw new acpV1.RequestError(-32602, `The gateway refused the request: ${gatewayHeader} is missing`)
  }
  const elicit = scenario.elicitDuring?.authenticate
  if (elicit) {
    const method = v2 ? 'auth/login' : 'authenticate'
    const response = await elicitForRequest(method, requestId, elicit, (scoped) => client.request('elicitation/create', scoped))
    if (!isRecord(response) || response.action !== 'accept') throw new acpV1.RequestError(-32000, `Login not completed: ${JSON.stringify(response)}`)
  }
  authenticated = true
  const status = scenario.initialize?.authStatus
  if (status) setImmediate(() => void writeRaw(JSON.stringify({ jsonrpc: '2.0', method: '_auth/status_update', params: { authStatus: status.signedIn } })))
  return {}
}
app.onRequest(v2 ? 'auth/login' : 'authenticate', login)
app.onRequest(v2 ? 'auth/logout' : 'logout', () => {
  authenticated = false
  return {}
})

app.onRequest('session/new', async ({ params, client, requestId }) => {
  const behaviour = scenario.session ?? {}
  if (behaviour.requireAuth && !authenticated) throw new acpV1.RequestError(-32000, 'Authentication required')
  const elicit = scenario.elicitDuring?.['session/new']
  if (elicit) await elicitForRequest('session/new', requestId, elicit, (scoped) => client.request('elicitation/create', scoped))
  const sessionId = `${behaviour.idPrefix ?? 'sess-'}${++sessionCounter}`
  if (authenticated) signedInSessions.add(sessionId)
  log(`SESSION-NEW ${JSON.stringify(params)}`)
  if (dumpSessionNew) appendFileSync(dumpSessionNew, JSON.stringify(params) + '\n')
  if (typeof params.cwd === 'string') sessionCwd.set(sessionId, params.cwd)
  // Before the response: the client buffers updates for a session it is still creating (E5).
  for (const text of pendingReports.splice(0)) {
    await sendUpdate(client, sessionId, { sessionUpdate: 'agent_message_chunk', messageId: `report-${processTag}-${++messageCounter}`, content: { type: 'text', text } })
  }
  for (const update of behaviour.updatesBeforeResponse ?? []) await sendUpdate(client, sessionId, update)
  if (behaviour.configOptions) sessionConfig.set(sessionId, structuredClone(behaviour.configOptions))
  const response: Json = { sessionId }
  if (behaviour.configOptions) response.configOptions = behaviour.configOptions
  if (v2) {
    if (behaviour.availableCommands) response.availableCommands = behaviour.availableCommands.map(commandV2)
  } else {
    if (behaviour.modes) response.modes = behaviour.modes
    if (behaviour.models) {
      sessionModel.set(sessionId, behaviour.models.currentModelId)
      response.models = behaviour.models
    }
    if (behaviour.availableCommands) {
      const commands = behaviour.availableCommands.map(commandV1)
      setImmediate(() => void sendUpdate(client, sessionId, { sessionUpdate: 'available_commands_update', availableCommands: commands }))
    }
  }
  return response
})

/** Sessions closed and not loaded or resumed since (`closeForgets`). */
const closedSessions = new Set<string>()
async function reattach({ params, client }: LooseContext, replay: boolean): Promise<Json | null> {
  const sessionId = String(params.sessionId)
  log(`REATTACH ${v2 ? 'session/resume' : replay ? 'session/load' : 'session/resume'} ${sessionId} replay=${replay}`)
  log(`REATTACH-PARAMS ${JSON.stringify(params)}`)
  const fails = scenario.session?.reattachFails
  if (fails) throw new acpV1.RequestError(fails.code, fails.message, fails.data)
  const waitFor = scenario.session?.reattachUntilFile
  if (waitFor) while (!existsSync(waitFor)) await delay(50)
  if (authenticated) signedInSessions.add(sessionId)
  closedSessions.delete(sessionId)
  if (typeof params.cwd === 'string') sessionCwd.set(sessionId, params.cwd)
  const replaying = async () => {
    for (const step of scenario.session?.replay ?? []) await runStep(client, sessionId, step, { stopReason: 'end_turn' })
  }
  if (replay && scenario.session?.replayAfterResponse) void replaying()
  else if (replay) await replaying()
  const before = scenario.session?.updatesBeforeResume ?? []
  for (const update of before) await sendUpdate(client, sessionId, update)
  if (v2 && !before.some((update) => update.sessionUpdate === 'state_update')) await sendUpdate(client, sessionId, { sessionUpdate: 'state_update', state: 'idle' })
  // A restarted process still has its sessions (a real agent keeps them on disk), in the scenario's options: it resumes
  // them in its defaults, as codex-acp does, whatever mode they were in.
  const defaults = scenario.session?.configOptions
  if (!sessionConfig.has(sessionId) && defaults) sessionConfig.set(sessionId, structuredClone(defaults))
  const options = sessionConfig.get(sessionId)
  const models = scenario.session?.models
  return {
    ...(options ? { configOptions: options } : {}),
    ...(models && !v2 ? { models: { ...models, currentModelId: sessionModel.has(sessionId) ? sessionModel.get(sessionId) : models.currentModelId } } : {}),
  }
}
let listsAnswered = 0
app.onRequest('session/list', async ({ params }) => {
  const cwd = typeof params.cwd === 'string' ? params.cwd : '/'
  const first = listsAnswered++ === 0
  const waitFor = scenario.session?.listUntilFile
  if (first && waitFor) while (!existsSync(waitFor)) await delay(50)
  const later = first ? undefined : scenario.session?.listLater
  return { sessions: (later ?? scenario.session?.list ?? []).map((s) => ({ ...s, cwd: s.cwd ?? cwd })) }
})
app.onRequest('session/close', ({ params }) => {
  log(`CLOSE ${String(params.sessionId)}`)
  if (scenario.session?.closeForgets) closedSessions.add(String(params.sessionId))
  return {}
})
const deletedSessions = new Set<string>()
app.onRequest('session/delete', ({ params }) => {
  const sessionId = String(params.sessionId)
  log(`DELETE ${sessionId}`)
  if (deletedSessions.has(sessionId)) throw new acpV1.RequestError(-32002, `Session not found: ${sessionId}`, { sessionId })
  const fails = scenario.session?.deleteFails
  if (fails) throw new acpV1.RequestError(fails.code, fails.message)
  deletedSessions.add(sessionId)
  return {}
})
if (v2) app.onRequest('session/resume', (context) => reattach(context, isRecord(context.params.replayFrom)))
else {
  app.onRequest('session/load', (context) => reattach(context, true))
  app.onRequest('session/resume', (context) => reattach(context, false))
  app.onRequest('session/set_mode', ({ params, client }) => {
    const refuse = scenario.session?.refuseChanges
    if (refuse) throw new acpV1.RequestError(refuse.code, refuse.message)
    void sendUpdate(client, String(params.sessionId), { sessionUpdate: 'current_mode_update', currentModeId: params.modeId })
    return {}
  })
  // The unstable session models API (Gemini CLI), gone from the SDK's schema: no update reports the change, the answer is all.
  app.onRequest('session/set_model', (raw) => (isRecord(raw) ? raw : {}), ({ params }) => {
    const refuse = scenario.session?.refuseChanges
    if (refuse) throw new acpV1.RequestError(refuse.code, refuse.message)
    const listed = scenario.session?.models?.availableModels.some((m) => isRecord(m) && m.modelId === params.modelId)
    if (!listed) throw acpV1.RequestError.invalidParams(undefined, `Unknown model ${String(params.modelId)}`)
    sessionModel.set(String(params.sessionId), params.modelId)
    log(`SET-MODEL ${JSON.stringify(params)}`)
    return {}
  })
}

app.onRequest('session/set_config_option', ({ params }) => {
  const refuse = scenario.session?.refuseChanges
  if (refuse) throw new acpV1.RequestError(refuse.code, refuse.message)
  const options = sessionConfig.get(String(params.sessionId)) ?? []
  const key = v2 ? 'configId' : 'id'
  const option = options.find((item) => isRecord(item) && item[key] === params.configId) as Json | undefined
  if (!option) throw acpV1.RequestError.invalidParams(undefined, `Unknown config option ${String(params.configId)}`)
  option.currentValue = params.value
  log(`SET-CONFIG ${JSON.stringify(params)}`)
  return { configOptions: options }
})

app.onNotification('session/cancel', ({ params }) => {
  const sessionId = String(params.sessionId)
  log(`CANCEL ${sessionId}`)
  cancelled.add(sessionId)
  cancelWaiters.get(sessionId)?.()
})

if (v2) {
  app.onRequest('terminal/cancel', ({ params, client }) => {
    log(`TERMINAL-CANCEL ${JSON.stringify(params)}`)
    const sessionId = String(params.sessionId)
    const terminalId = String(params.terminalId)
    const plan = Object.hasOwn(scenario.cancelTerminals ?? {}, terminalId) ? scenario.cancelTerminals![terminalId] : undefined
    const key = `${sessionId}\n${terminalId}`
    if (!plan || cancelledTerminals.has(key)) throw acpV1.RequestError.invalidParams(undefined, `Terminal ${terminalId} is unknown, exited or not cancellable`)
    cancelledTerminals.add(key)
    // Accepted now; the process "stops" a moment later, confirmed by the terminal's exit status (E16).
    setTimeout(() => {
      void (async () => {
        const update: Json = { sessionUpdate: 'terminal_update', terminalId, exitStatus: plan.exitStatus ?? { signal: 'SIGTERM' }, capabilities: null }
        if (plan.output !== undefined) update.output = { data: Buffer.from(plan.output, 'utf8').toString('base64') }
        await sendUpdate(client, sessionId, update)
        const background = sessionBackground.get(sessionId)
        if (background) sessionBackground.set(sessionId, background.filter((item) => !(item.type === 'terminal' && item.terminalId === terminalId)))
        if (!runningSessions.has(sessionId)) await sendUpdate(client, sessionId, { sessionUpdate: 'state_update', state: 'idle' })
      })()
    }, 5)
    return {}
  })
}

if (v2) {
  app.onRequest('tool_call/cancel', ({ params, client }) => {
    log(`TOOL-CALL-CANCEL ${JSON.stringify(params)}`)
    const sessionId = String(params.sessionId)
    const toolCallId = String(params.toolCallId)
    const plan = Object.hasOwn(scenario.cancelToolCalls ?? {}, toolCallId) ? scenario.cancelToolCalls![toolCallId] : undefined
    const key = `${sessionId}\n${toolCallId}`
    if (!plan || cancelledToolCalls.has(key)) throw acpV1.RequestError.invalidParams(undefined, `Tool call ${toolCallId} is unknown, final or not cancellable`)
    cancelledToolCalls.add(key)
    // Accepted now; the work "stops" a moment later, confirmed by the tool call's final status (E15).
    if (plan.confirm !== false) {
      setTimeout(() => {
        void (async () => {
          await sendUpdate(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: plan.status ?? 'cancelled', capabilities: null })
          // Background work it was: no longer listed, and an idle session says so in a new snapshot.
          const background = sessionBackground.get(sessionId)
          if (background?.some((item) => item.type === 'tool_call' && item.toolCallId === toolCallId)) {
            sessionBackground.set(sessionId, background.filter((item) => !(item.type === 'tool_call' && item.toolCallId === toolCallId)))
            if (!runningSessions.has(sessionId)) await sendUpdate(client, sessionId, { sessionUpdate: 'state_update', state: 'idle' })
          }
          toolCallCancelWaiters.get(key)?.()
        })()
      }, 5)
    }
    return {}
  })
}

app.onRequest('session/prompt', async ({ params, client, requestId }) => {
  const sessionId = String(params.sessionId)
  const signedIn = authenticated && (!scenario.session?.authOnlyForLaterSessions || signedInSessions.has(sessionId))
  if (closedSessions.has(sessionId)) throw new acpV1.RequestError(-32002, `Session not found: ${sessionId}`, { sessionId })
  if (scenario.session?.promptRequiresAuth && !signedIn) throw new acpV1.RequestError(-32000, 'Authentication required')
  promptRequestIds.set(sessionId, requestId)
  cancelled.delete(sessionId)
  lastPrompt.set(sessionId, params.prompt)
  const steps = pickScript(params.prompt)
  const afterTurn = steps.flatMap((step) => (step.type === 'after_turn' ? step.steps : []))
  const runAfterTurn = () => {
    if (afterTurn.length > 0) setTimeout(() => void runDetached(client, sessionId, afterTurn), 5)
  }
  const promptError = steps.find((step) => step.type === 'prompt_error')
  if (promptError) {
    for (const step of steps.slice(0, steps.indexOf(promptError))) if (step.type === 'update') await sendUpdate(client, sessionId, step.update)
    runAfterTurn()
    throw new acpV1.RequestError(promptError.code, promptError.message, promptError.data)
  }
  if (!v2) {
    const ending = await runTurn(client, sessionId, steps)
    runAfterTurn()
    return { stopReason: ending.stopReason }
  }
  // v2: the response only acknowledges the inserted message; the turn runs on and ends with an idle state_update.
  const messageId = `user-${processTag}-${++messageCounter}`
  await sendUpdate(client, sessionId, { sessionUpdate: 'state_update', state: 'running' })
  await sendUpdate(client, sessionId, { sessionUpdate: 'user_message', messageId, content: params.prompt })
  // Start after the SDK has written the response (clients must cope with either order anyway).
  setTimeout(() => {
    void runTurn(client, sessionId, steps).then((ending) =>
      sendUpdate(client, sessionId, {
        sessionUpdate: 'state_update',
        state: 'idle',
        stopReason: ending.stopReason,
        ...(ending.error ? { error: ending.error } : {}),
      }).then(runAfterTurn),
    )
  }, 5)
  return { messageId }
})

function pickScript(prompt: unknown): Step[] {
  const prompts = scenario.prompts ?? {}
  const first = Array.isArray(prompt) ? prompt.find((block) => isRecord(block) && block.type === 'text') : undefined
  const text = isRecord(first) && typeof first.text === 'string' ? first.text.trim() : ''
  return prompts[text] ?? prompts.default ?? [{ type: 'text', text: `echo: ${text}` }]
}

/** Steps the agent runs on its own (after_turn): every step runs, a cancel included. */
async function runDetached(client: LooseClient, sessionId: string, steps: Step[]): Promise<void> {
  const ending: Ending = { stopReason: 'end_turn' }
  for (const step of steps) await runStep(client, sessionId, step, ending, `agent-${processTag}-${++messageCounter}`)
}

interface Ending {
  stopReason: string
  error?: { code?: number; message: string }
}

async function runTurn(client: LooseClient, sessionId: string, steps: Step[]): Promise<Ending> {
  const ending: Ending = { stopReason: 'end_turn' }
  const turn = { agentMessageId: `agent-${processTag}-${++messageCounter}` }
  for (const step of steps) {
    if (cancelled.has(sessionId)) return { stopReason: 'cancelled' }
    const result = await runStep(client, sessionId, step, ending, turn.agentMessageId)
    if (result === 'cancelled') return { stopReason: 'cancelled' }
  }
  return cancelled.has(sessionId) ? { stopReason: 'cancelled' } : ending
}

async function runStep(client: LooseClient, sessionId: string, step: Step, ending: Ending, agentMessageId = 'agent-replay'): Promise<void | 'cancelled'> {
  const chunk = (sessionUpdate: string, text: string, messageId = agentMessageId) =>
    sendUpdate(client, sessionId, { sessionUpdate, messageId, content: { type: 'text', text } })
  switch (step.type) {
    case 'text': {
      const pieces = step.chunks ?? [step.text ?? '']
      if (step.emptyFirst) await chunk('agent_message_chunk', '')
      for (const piece of pieces) await chunk('agent_message_chunk', piece)
      return
    }
    case 'thought':
      await chunk('agent_thought_chunk', step.text, `thought-${agentMessageId}`)
      return
    case 'tool_call': {
      const fields: Json = { toolCallId: step.id, title: step.title, kind: step.kind ?? 'other', status: step.status ?? 'pending' }
      if (step.locations) fields.locations = step.locations
      if (step.rawInput !== undefined) fields.rawInput = step.rawInput
      await sendUpdate(client, sessionId, { sessionUpdate: v2 ? 'tool_call_update' : 'tool_call', ...fields })
      return
    }
    case 'tool_call_update': {
      const fields: Json = { toolCallId: step.id }
      if (step.status) fields.status = step.status
      if (step.title) fields.title = step.title
      if (step.locations) fields.locations = step.locations
      const content: Json[] = []
      if (step.text !== undefined) content.push({ type: 'content', content: { type: 'text', text: step.text } })
      if (step.diff) content.push(v2 ? diffV2(step.diff) : { type: 'diff', path: step.diff.path, oldText: step.diff.oldText ?? null, newText: step.diff.newText })
      if (content.length) fields.content = content
      await sendUpdate(client, sessionId, { sessionUpdate: 'tool_call_update', ...fields })
      return
    }
    case 'tool_call_content_chunk': {
      const content = { type: 'content', content: { type: 'text', text: step.text } }
      await sendUpdate(
        client,
        sessionId,
        v2 ? { sessionUpdate: 'tool_call_content_chunk', toolCallId: step.id, content } : { sessionUpdate: 'tool_call_update', toolCallId: step.id, content: [content] },
      )
      return
    }
    case 'plan': {
      const entries = step.entries.map((entry) => ({ content: entry.content, priority: entry.priority ?? 'medium', status: entry.status ?? 'pending' }))
      await sendUpdate(
        client,
        sessionId,
        v2 ? { sessionUpdate: 'plan_update', plan: { type: 'items', planId: step.planId ?? 'plan-1', entries } } : { sessionUpdate: 'plan', entries },
      )
      return
    }
    case 'mode':
      if (v2) log('mode step skipped: ACP v2 has no modes')
      else await sendUpdate(client, sessionId, { sessionUpdate: 'current_mode_update', currentModeId: step.modeId })
      return
    case 'commands':
      await sendUpdate(client, sessionId, { sessionUpdate: 'available_commands_update', availableCommands: step.commands.map(v2 ? commandV2 : commandV1) })
      return
    case 'update':
      // `{cwd}` and `{terminalId}` as in client_request (a tool call embedding the terminal it just created).
      await sendUpdate(client, sessionId, fillPlaceholders(step.update, sessionCwd.get(sessionId) ?? '', lastTerminal.get(sessionId) ?? '') as Json)
      return
    case 'sleep':
      // Interruptible: a cancel during the sleep ends the turn at once.
      await Promise.race([delay(step.ms), waitForCancel(sessionId)])
      return cancelled.has(sessionId) ? 'cancelled' : undefined
    case 'request_permission': {
      const asked = client.request('session/request_permission', { sessionId, ...(v2 && step.paramsV2 ? step.paramsV2 : step.params) }).catch((error: unknown) => ({ error: describe(error) }))
      const report = async (response: unknown) => {
        const outcome = isRecord(response) && 'outcome' in response ? response.outcome : response
        log(`PERMISSION-OUTCOME ${JSON.stringify(outcome)}`)
        await chunk('agent_message_chunk', `permission outcome: ${JSON.stringify(outcome)}`)
      }
      if (step.noWait) void asked.then(report)
      else await report(await asked)
      return
    }
    case 'elicitation': {
      // `"requestId": "{promptRequestId}"`: scoped to the session/prompt request this turn is answering (v1: pending until the turn ends).
      const params = step.params.requestId === '{promptRequestId}' ? { ...step.params, requestId: promptRequestIds.get(sessionId) } : step.params
      const asked = client.request('elicitation/create', { sessionId, ...params }).catch((error: unknown) => ({ error: describe(error) }))
      const report = async (response: unknown) => {
        log(`ELICITATION-ANSWER ${JSON.stringify(step.params.toolCallId ?? null)} ${JSON.stringify(response)}`)
        await chunk('agent_message_chunk', `elicitation response: ${JSON.stringify(response)}`)
      }
      if (step.noWait) void asked.then(report)
      else await report(await asked)
      return
    }
    case 'after_turn':
      return
    case 'raw_line': {
      for (const id of step.replyIds ?? []) rawReplyIds.add(id)
      const reply = step.awaitReply ? new Promise<unknown>((resolve) => (rawReplyWaiter = resolve)) : undefined
      await writeRaw(step.line ?? JSON.stringify(step.json))
      if (reply) await chunk('agent_message_chunk', `raw reply: ${JSON.stringify(await reply)}`)
      return
    }
    case 'client_request': {
      const params = fillPlaceholders(step.params, sessionCwd.get(sessionId) ?? '', lastTerminal.get(sessionId) ?? '') as Json
      const sent = client
        .request(step.method, { sessionId, ...params })
        .then((result) => {
          if (isRecord(result) && typeof result.terminalId === 'string') lastTerminal.set(sessionId, result.terminalId)
          return result
        })
        .catch((error: unknown) => ({ error: isRecord(error) && 'code' in error ? { code: error.code, message: error.message, data: error.data } : String(error) }))
        .then((response) => chunk('agent_message_chunk', `client response (${step.method}): ${JSON.stringify(response ?? null)}`))
      if (!step.background) await sent
      return
    }
    case 'background':
      sessionBackground.set(sessionId, step.items)
      return
    case 'report_prompt': {
      const blocks = (lastPrompt.get(sessionId) ?? []) as Json[]
      const summary = blocks.map((block) => (typeof block.data === 'string' ? { ...block, data: block.data.length } : block))
      await chunk('agent_message_chunk', `prompt received: ${JSON.stringify(summary)}`)
      return
    }
    case 'flood': {
      const sends: Promise<void>[] = []
      for (let i = 0; i < step.count; i++) sends.push(chunk('agent_message_chunk', step.text ?? `${i} `))
      await Promise.all(sends)
      return
    }
    case 'crash': {
      if (step.grandchild) {
        const child = spawn('sleep', ['300'], { stdio: 'ignore' })
        log(`GRANDCHILD ${child.pid}`)
      }
      log(`CRASH ${step.code ?? 1}`)
      process.exit(step.code ?? 1)
      return
    }
    case 'exit':
      process.exit(step.code ?? 0)
      return
    case 'wait_for_cancel':
      await waitForCancel(sessionId)
      for (const then of step.then ?? []) await runStep(client, sessionId, then, ending, agentMessageId)
      return 'cancelled'
    case 'wait_for_tool_call_cancel': {
      const key = `${sessionId}\n${step.id}`
      if (!cancelledToolCalls.has(key)) await Promise.race([waitForCancel(sessionId), new Promise<void>((resolve) => toolCallCancelWaiters.set(key, resolve))])
      toolCallCancelWaiters.delete(key)
      return cancelled.has(sessionId) ? 'cancelled' : undefined
    }
    case 'wait_for_file': {
      const path = step.path.replaceAll('{cwd}', sessionCwd.get(sessionId) ?? '')
      let waiting = true
      if (!step.evenAfterCancel) void waitForCancel(sessionId).then(() => (waiting = false))
      while (waiting && !existsSync(path)) await delay(50)
      return cancelled.has(sessionId) && !step.evenAfterCancel ? 'cancelled' : undefined
    }
    case 'stderr':
      log(step.text)
      return
    case 'stop':
      ending.stopReason = step.stopReason
      if (step.error) ending.error = step.error
      return
    case 'prompt_error':
      return
  }
}

/**
 * A request-scoped `elicitation/create` for the client request being handled (`requestId` is its JSON-RPC
 * id): waits for the answer, logs and queues the report, and returns the answer (or `{error}`).
 */
async function elicitForRequest(method: string, requestId: unknown, elicit: RequestElicitation, send: (params: Json) => Promise<unknown>): Promise<unknown> {
  const params: Json = { requestId, ...elicit.params }
  const response = await send(params).catch((error: unknown) => ({ error: describe(error) }))
  log(`ELICITATION-RESPONSE ${method} ${JSON.stringify(response)}`)
  pendingReports.push(`request-scoped elicitation response (${method}): ${JSON.stringify(response)}`)
  return response
}

/** A JSON-RPC request written straight to stdout (not through the SDK); resolves with its result, rejects with its error. */
async function requestRaw(method: string, params: Json): Promise<unknown> {
  const id = `raw-${processTag}-${++rawRequestCounter}`
  const reply = new Promise<Json>((resolve) => rawRequestWaiters.set(id, resolve))
  await writeRaw(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
  const message = await reply
  if (isRecord(message.error)) throw message.error
  return message.result
}

function sendUpdate(client: LooseClient, sessionId: string, update: Json): Promise<void> {
  if (v2 && update.sessionUpdate === 'state_update') {
    if (update.state === 'idle') runningSessions.delete(sessionId)
    else runningSessions.add(sessionId)
    // Once the agent reports background work, every state update carries it (unless the step set its own).
    const background = sessionBackground.get(sessionId)
    if (background !== undefined && !('background' in update)) update = { ...update, background }
  }
  return client.notify('session/update', { sessionId, update })
}

function waitForCancel(sessionId: string): Promise<void> {
  if (cancelled.has(sessionId)) return Promise.resolve()
  return new Promise((resolve) =>
    cancelWaiters.set(sessionId, () => {
      cancelWaiters.delete(sessionId)
      resolve()
    }),
  )
}

function diffV2(diff: { path: string; oldText?: string | null; newText: string }): Json {
  const operation = diff.oldText === undefined || diff.oldText === null ? 'add' : 'modify'
  const relative = diff.path.replace(/^\/+/, '')
  const text = createTwoFilesPatch(`a/${relative}`, `b/${relative}`, diff.oldText ?? '', diff.newText)
  return { type: 'diff', changes: [{ operation, path: diff.path }], patch: { format: 'git_patch', text } }
}

function commandV1(command: { name: string; description: string; hint?: string }): Json {
  return { name: command.name, description: command.description, ...(command.hint ? { input: { hint: command.hint } } : {}) }
}

function commandV2(command: { name: string; description: string; hint?: string }): Json {
  return { type: 'command', name: command.name, description: command.description, ...(command.hint ? { input: { type: 'text', hint: command.hint } } : {}) }
}

function fillPlaceholders(value: unknown, cwd: string, terminalId: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{cwd}', cwd).replaceAll('{terminalId}', terminalId)
  if (Array.isArray(value)) return value.map((item) => fillPlaceholders(item, cwd, terminalId))
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillPlaceholders(item, cwd, terminalId)]))
  return value
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(error: unknown): unknown {
  if (isRecord(error) && 'code' in error) return { code: error.code, message: error.message }
  return String(error)
}

const connection = app.connect(sdk.ndJsonStream(output, input))
void connection.closed.then(() => process.exit(0))

/**
 * The agent tools wired as the composition root wires them (supervisor + config + connection factory),
 * with an in-memory keychain so the flows run without a Secret Service.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAcpConnection, type ClientCapabilityFlags } from '../../../main/acp/connection'
import type { AcpClientConnection } from '../../../main/acp/types'
import type { AcpConnectionFactory } from '../../../main/agents/agent-host'
import { AgentSupervisor } from '../../../main/agents/supervisor'
import { createAgentToolsService, type AgentToolsService } from '../../../main/agents-tools/service'
import { fail, ok, type Result } from '../../../main/base/errors'
import { RecordingConfirmation } from '../../support/confirmations'
import { createAgentConfigService, type AgentConfigService } from '../../../main/config/agent-config-service'
import type { SecretStore } from '../../../main/secrets/secret-store'
import { scriptedAgentCommand } from '../../agents/command'
import { RecordingSink } from '../../support/recording-sink'

const here = dirname(fileURLToPath(import.meta.url))
export const ENV_AGENT = join(here, 'fixtures', 'env-agent.mjs')

export interface HarnessAgent {
  id: string
  name?: string
  /** A scripted-agent scenario, or the env-agent fixture with these extra args. */
  scenario?: string
  v2?: boolean
  envAgentArgs?: string[]
  env?: Record<string, string>
  secretEnv?: string[]
  protocolVersion?: 1 | 2
}

/** An in-memory SecretStore (same contract as the keytar one). */
export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>()
  available = true
  async status() {
    return this.available ? ({ available: true } as const) : ({ available: false, message: 'no keychain (test)' } as const)
  }
  async set(agentId: string, name: string, value: string): Promise<Result<void>> {
    if (!this.available) return fail({ kind: 'keychain-unavailable', message: 'no keychain (test)' })
    this.values.set(`${agentId}:${name}`, value)
    return ok(undefined)
  }
  async has(agentId: string, name: string) {
    return ok(this.values.has(`${agentId}:${name}`))
  }
  async delete(agentId: string, name: string): Promise<Result<void>> {
    this.values.delete(`${agentId}:${name}`)
    return ok(undefined)
  }
  async deleteAll(agentId: string) {
    let n = 0
    for (const key of [...this.values.keys()]) if (key.startsWith(`${agentId}:`) && this.values.delete(key)) n++
    return ok(n)
  }
  async resolveEnv(agentId: string, names: readonly string[]) {
    const env: Record<string, string> = {}
    for (const name of names) {
      const value = this.values.get(`${agentId}:${name}`)
      if (value !== undefined) env[name] = value
    }
    return ok(env)
  }
}

export interface Harness {
  home: string
  workspace: string
  sink: RecordingSink
  secretStore: MemorySecretStore
  config: AgentConfigService
  supervisor: AgentSupervisor
  tools: AgentToolsService
  connect(agentId: string): Promise<Result<{ connection: AcpClientConnection; protocolVersion: 1 | 2 }>>
  /** `session/new` on the running agent: the session id, or the failure (e.g. auth-required). */
  newSession(agentId: string): Promise<Result<string>>
  logFile(agentId: string): string
  dispose(): Promise<void>
}

/** `clientCapabilities`: what `initialize` advertises (default: none of the flags, as the connection's default). */
export async function startHarness(
  agents: HarnessAgent[],
  secrets: Record<string, string> = {},
  options: { environment?: NodeJS.ProcessEnv; clientCapabilities?: ClientCapabilityFlags } = {},
): Promise<Harness> {
  const home = mkdtempSync(join(tmpdir(), 'bosun-tools-home-'))
  const workspace = mkdtempSync(join(tmpdir(), 'bosun-tools-ws-'))
  const definitions = agents.map((agent) => {
    const launch = agent.scenario
      ? scriptedAgentCommand(agent.scenario, { v2: agent.v2 ?? false })
      : { command: process.execPath, args: [ENV_AGENT, ...(agent.envAgentArgs ?? [])] }
    return {
      id: agent.id,
      name: agent.name ?? agent.id,
      ...launch,
      env: agent.env ?? {},
      secretEnv: agent.secretEnv ?? [],
      defaultCwd: workspace,
      ...(agent.protocolVersion ? { protocolVersion: agent.protocolVersion } : {}),
    }
  })
  writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: definitions }, null, 2))

  const sink = new RecordingSink()
  const secretStore = new MemorySecretStore()
  for (const [key, value] of Object.entries(secrets)) secretStore.values.set(key, value)
  // The person confirms every launch here (the gate itself is tested in test/unit/trust).
  const confirmation = new RecordingConfirmation()
  const config = await createAgentConfigService({ home, events: sink, secretStore, confirmation })
  const logFile = (agentId: string) => join(home, 'logs', 'agents', `${agentId}.log`)
  const createConnection: AcpConnectionFactory = ({ input, output, logger }) =>
    createAcpConnection({
      input,
      output,
      logger,
      clientInfo: { name: 'Bosun', version: '0.0.0-test' },
      elicitation: { form: true, url: true },
      ...(options.clientCapabilities ? { clientCapabilities: options.clientCapabilities } : {}),
    })
  const holder: { tools?: AgentToolsService } = {}
  const supervisor = new AgentSupervisor({
    createConnection: (streams) => {
      const connection = createConnection(streams)
      holder.tools?.attachConnection(streams.agentId, connection)
      return connection
    },
    autoRestart: false,
    preferredProtocolVersion: (agentId) => config.definitions.get(agentId)?.protocolVersion,
  })
  const connect = async (agentId: string) => {
    const host = supervisor.get(agentId)
    if (host?.status === 'ready' && host.connection && host.handshake) {
      return ok({ connection: host.connection, protocolVersion: host.handshake.protocolVersion })
    }
    const launch = await config.launchSpec(agentId)
    if (!launch.ok) return launch
    const started = await supervisor.ensureConnected(agentId, {
      agentId,
      name: config.definitions.get(agentId)?.name ?? agentId,
      ...launch.value,
      logFile: logFile(agentId),
    })
    return started.ok ? ok({ connection: started.value.connection, protocolVersion: started.value.protocolVersion }) : started
  }
  const tools = createAgentToolsService({
    events: sink,
    config,
    supervisor,
    connect,
    createConnection,
    logFile,
    checkInitializeTimeoutMs: 20_000,
    ...(options.environment ? { environment: options.environment } : {}),
  })
  holder.tools = tools

  return {
    home,
    workspace,
    sink,
    secretStore,
    config,
    supervisor,
    tools,
    connect,
    logFile,
    async newSession(agentId) {
      const connected = await connect(agentId)
      if (!connected.ok) return connected
      try {
        return ok((await connected.value.connection.newSession({ cwd: workspace })).sessionId)
      } catch (error) {
        return fail((error as { failure?: { kind: 'rpc-error'; message: string } }).failure ?? { kind: 'internal', message: String(error) })
      }
    },
    async dispose() {
      await supervisor.stopAll({ deadlineMs: 2_000 })
      for (const agent of agents) await supervisor.get(agent.id)?.flushLog()
      supervisor.dispose()
      tools.dispose()
      config.dispose()
      rmSync(home, { recursive: true, force: true })
      rmSync(workspace, { recursive: true, force: true })
    },
  }
}

export { must } from '../../support/must'

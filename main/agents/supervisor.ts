import type { AcpClientConnection, AgentHandshake, ProtocolVersion } from '../acp/types'
import { fail, ok, type Result } from '../base/errors'
import { Emitter, type Event } from '../base/event'
import { DisposableStore, type IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import type { AgentRuntimeView } from '../../common/session/types'
import { AgentHost, type AcpConnectionFactory, type AgentCrashEvent, type AgentDisconnectEvent, type AgentHostOptions } from './agent-host'
import type { AgentProcessSpec } from './agent-process'

export interface AgentSupervisorOptions
  extends Pick<AgentHostOptions, 'scheduler' | 'initializeTimeoutMs' | 'stopDeadlineMs' | 'restartPolicy' | 'autoRestart' | 'startProcess' | 'redactLog' | 'processRecords'> {
  createConnection: AcpConnectionFactory
  logger?: Logger
  /** A persisted version preference per agent (see {@link AgentSupervisor.onDidChangePreferredVersion}). */
  preferredProtocolVersion?: (agentId: string) => ProtocolVersion | undefined
}

/**
 * Every running agent, one {@link AgentHost} per agent id. Hosts are created on first use and live until
 * {@link AgentSupervisor.remove} or dispose; their events are forwarded with the agent id.
 */
export class AgentSupervisor implements IDisposable {
  private readonly hosts = new Map<string, { host: AgentHost; subscriptions: DisposableStore }>()
  private readonly logger: Logger
  private disposed = false

  private readonly onDidChangeStatusEmitter = new Emitter<AgentRuntimeView>()
  readonly onDidChangeStatus: Event<AgentRuntimeView> = this.onDidChangeStatusEmitter.event
  private readonly onDidConnectEmitter = new Emitter<{ agentId: string; connection: AcpClientConnection }>()
  readonly onDidConnect: Event<{ agentId: string; connection: AcpClientConnection }> = this.onDidConnectEmitter.event
  private readonly onDidDisconnectEmitter = new Emitter<AgentDisconnectEvent & { agentId: string }>()
  readonly onDidDisconnect: Event<AgentDisconnectEvent & { agentId: string }> = this.onDidDisconnectEmitter.event
  private readonly onDidCrashEmitter = new Emitter<AgentCrashEvent & { agentId: string }>()
  readonly onDidCrash: Event<AgentCrashEvent & { agentId: string }> = this.onDidCrashEmitter.event
  private readonly onDidChangePreferredVersionEmitter = new Emitter<{ agentId: string; version: ProtocolVersion }>()
  /** Persist this in the agent's settings so later launches offer the version directly. */
  readonly onDidChangePreferredVersion: Event<{ agentId: string; version: ProtocolVersion }> = this.onDidChangePreferredVersionEmitter.event

  constructor(private readonly options: AgentSupervisorOptions) {
    this.logger = options.logger ?? createLogger('agent')
  }

  get(agentId: string): AgentHost | undefined {
    return this.hosts.get(agentId)?.host
  }

  /** The host for `spec.agentId`, created (not started) if needed; a changed spec applies from the next start. */
  host(spec: AgentProcessSpec): AgentHost {
    if (this.disposed) throw new Error('AgentSupervisor is disposed')
    const existing = this.hosts.get(spec.agentId)
    if (existing) {
      existing.host.updateSpec(spec)
      return existing.host
    }
    const { createConnection, scheduler, initializeTimeoutMs, stopDeadlineMs, restartPolicy, autoRestart, startProcess, redactLog } = this.options
    const preferred = this.options.preferredProtocolVersion?.(spec.agentId)
    const host = new AgentHost({
      spec,
      createConnection,
      logger: this.logger,
      ...(scheduler ? { scheduler } : {}),
      ...(initializeTimeoutMs !== undefined ? { initializeTimeoutMs } : {}),
      ...(stopDeadlineMs !== undefined ? { stopDeadlineMs } : {}),
      ...(restartPolicy ? { restartPolicy } : {}),
      ...(autoRestart !== undefined ? { autoRestart } : {}),
      ...(startProcess ? { startProcess } : {}),
      ...(redactLog ? { redactLog } : {}),
      ...(this.options.processRecords ? { processRecords: this.options.processRecords } : {}),
      ...(preferred ? { preferredProtocolVersion: preferred } : {}),
    })
    const agentId = spec.agentId
    const subscriptions = new DisposableStore()
    subscriptions.add(host.onDidChangeStatus((view) => this.onDidChangeStatusEmitter.fire(view)))
    subscriptions.add(host.onDidConnect((connection) => this.onDidConnectEmitter.fire({ agentId, connection })))
    subscriptions.add(host.onDidDisconnect((event) => this.onDidDisconnectEmitter.fire({ agentId, ...event })))
    subscriptions.add(host.onDidCrash((event) => this.onDidCrashEmitter.fire({ agentId, ...event })))
    subscriptions.add(host.onDidChangePreferredVersion((version) => this.onDidChangePreferredVersionEmitter.fire({ agentId, version })))
    this.hosts.set(agentId, { host, subscriptions })
    return host
  }

  /** Starts the agent unless it is ready (joins a start in progress); resolves with its handshake or the failure. */
  ensureStarted(agentId: string, spec: AgentProcessSpec): Promise<Result<AgentHandshake>> {
    if (this.disposed) return Promise.resolve(fail({ kind: 'agent-not-running', message: 'Bosun is shutting down.' }))
    if (spec.agentId !== agentId) throw new Error(`spec.agentId ${spec.agentId} does not match ${agentId}`)
    return this.host(spec).start()
  }

  /**
   * {@link ensureStarted}, then the live connection (what the sessions layer's `AgentPort.connect` needs).
   * Fails with `agent-not-running` if the agent died between the handshake and now.
   */
  async ensureConnected(
    agentId: string,
    spec: AgentProcessSpec,
  ): Promise<Result<{ connection: AcpClientConnection; protocolVersion: ProtocolVersion; handshake: AgentHandshake }>> {
    const started = await this.ensureStarted(agentId, spec)
    if (!started.ok) return started
    const connection = this.get(agentId)?.connection
    if (!connection) return fail({ kind: 'agent-not-running', message: `${spec.name} stopped right after starting.`, stderrTail: this.get(agentId)?.stderrTail() ?? '' })
    return ok({ connection, protocolVersion: started.value.protocolVersion, handshake: started.value })
  }

  /** A person's stop: no restart follows. Unknown ids are a no-op. */
  async stop(agentId: string, options: { deadlineMs?: number } = {}): Promise<void> {
    await this.get(agentId)?.stop(options)
  }

  async restart(agentId: string): Promise<Result<AgentHandshake>> {
    const host = this.get(agentId)
    if (!host) return fail({ kind: 'not-found', message: `No agent ${agentId} has been started.` })
    return host.restart()
  }

  /** Stops the agent and forgets its host (the agent definition was deleted). */
  async remove(agentId: string, options: { deadlineMs?: number } = {}): Promise<void> {
    const entry = this.hosts.get(agentId)
    if (!entry) return
    await entry.host.stop(options)
    this.hosts.delete(agentId)
    entry.subscriptions.dispose()
    entry.host.dispose()
  }

  /** Stops every agent in parallel under one deadline (app quit); resolves when all processes are gone. */
  async stopAll(options: { deadlineMs?: number; reason?: string } = {}): Promise<void> {
    await Promise.all([...this.hosts.values()].map(({ host }) => host.stop(options)))
  }

  views(): AgentRuntimeView[] {
    return [...this.hosts.values()].map(({ host }) => host.view())
  }

  /** Kills whatever still runs (no grace: call {@link stopAll} first) and releases every host and listener. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    for (const { host, subscriptions } of this.hosts.values()) {
      subscriptions.dispose()
      host.dispose()
    }
    this.hosts.clear()
    this.onDidChangeStatusEmitter.dispose()
    this.onDidConnectEmitter.dispose()
    this.onDidDisconnectEmitter.dispose()
    this.onDidCrashEmitter.dispose()
    this.onDidChangePreferredVersionEmitter.dispose()
  }
}

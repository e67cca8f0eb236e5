/**
 * Check connection: start the agent exactly as a session would (same launch spec, same connection
 * factory, same version negotiation) as a separate, throwaway {@link AgentHost}, run `initialize`, and
 * always stop it again. A failing agent is an answer (`ok: false` with the stderr tail), not an error.
 */
import type { AgentCapabilitySummary, AgentHandshake, ProtocolVersion } from '../acp/types'
import { AgentHost, type AcpConnectionFactory, type AgentProcessStarter } from '../agents/agent-host'
import type { AgentProcessSpec } from '../agents/agent-process'
import type { Logger } from '../base/log'
import type { CheckResult } from '../../common/contract/agent-tools'
import { agentErrorWords, type AgentErrorWords } from '../../common/acp-errors'
import { loginMethodsOf } from './auth-terminal'
import { gatewayView, loginKind } from './login-kind'
import type { SecretSet } from './redaction'

export interface CheckConnectionOptions {
  spec: AgentProcessSpec
  createConnection: AcpConnectionFactory
  preferredProtocolVersion?: ProtocolVersion
  secrets: SecretSet
  logger?: Logger
  /** Default 30 s. */
  initializeTimeoutMs?: number
  /** Graceful stop deadline before SIGKILL. Default 2 s. */
  stopDeadlineMs?: number
  startProcess?: AgentProcessStarter
  now?: () => number
  /** Called with the throwaway host at once, so an owner shutting down can kill it mid-check. */
  onHost?: (host: AgentHost) => void
}

/** The capabilities in the words the check shows, always in this order. */
export function capabilityWords(caps: AgentCapabilitySummary): CheckResult['capabilities'] {
  return [
    { label: 'Loads earlier sessions', supported: caps.loadSession },
    { label: 'Resumes sessions', supported: caps.resumeSession },
    { label: 'Lists sessions', supported: caps.listSessions },
    { label: 'Images in prompts', supported: caps.prompt.image },
    { label: 'Audio in prompts', supported: caps.prompt.audio },
    { label: 'Embedded context (files) in prompts', supported: caps.prompt.embeddedContext },
    { label: 'MCP servers over HTTP', supported: caps.mcp.http },
    { label: 'MCP servers over SSE', supported: caps.mcp.sse },
    { label: 'Additional folders', supported: caps.additionalDirectories },
    { label: 'Signs out', supported: caps.logout },
  ]
}

/** `command`: the agent's configured program (a `_meta["terminal-auth"]` login naming it is listed as a terminal login). */
export function describeHandshake(agentName: string, handshake: AgentHandshake, durationMs: number, command?: string): CheckResult {
  return {
    ok: true,
    agentName,
    agentInfo: handshake.agentInfo,
    protocolVersion: handshake.protocolVersion,
    capabilities: capabilityWords(handshake.capabilities),
    authMethods: loginMethodsOf(handshake.authMethods, command).map((m) => {
      const kind = loginKind(m)
      return {
        id: m.id,
        name: m.name,
        ...(m.description !== undefined ? { description: m.description } : {}),
        type: m.type,
        // claude-agent-acp's two "Custom model gateway" methods differ only in the API their gateway speaks.
        ...gatewayView(kind, m),
        ...(kind === 'other' ? { unsupported: true as const } : {}),
      }
    }),
    durationMs,
  }
}

/** Runs the check; never throws for anything the agent does. The throwaway process is gone when it resolves. */
export async function checkConnection(options: CheckConnectionOptions): Promise<CheckResult> {
  const now = options.now ?? Date.now
  const started = now()
  const { spec, secrets } = options
  // No log file: the check's stderr comes back in the result; the agent's log stays the running agent's.
  const host = new AgentHost({
    spec: withoutLogFile(spec),
    createConnection: options.createConnection,
    autoRestart: false,
    // The check reports the handshake a v1 agent gives with Bosun's full v1 offer.
    onV1AnswerToV2Offer: 'restart',
    initializeTimeoutMs: options.initializeTimeoutMs ?? 30_000,
    stopDeadlineMs: options.stopDeadlineMs ?? 2_000,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.preferredProtocolVersion ? { preferredProtocolVersion: options.preferredProtocolVersion } : {}),
    ...(options.startProcess ? { startProcess: options.startProcess } : {}),
  })
  options.onHost?.(host)
  try {
    const result = await host.start()
    if (result.ok) return describeHandshake(spec.name, result.value, now() - started, spec.command)
    const tail = result.error.stderrTail ?? lastLines(host.stderrTail())
    // An agent's JSON-RPC error in its words ("Internal error: " and the raw JSON of its `data` said nothing at a glance).
    const words: AgentErrorWords = result.error.kind === 'rpc-error' || result.error.kind === 'auth-required' ? agentErrorWords(result.error.message, result.error.data) : { message: result.error.message }
    return {
      ok: false,
      agentName: spec.name,
      agentInfo: null,
      protocolVersion: null,
      capabilities: [],
      authMethods: [],
      error: {
        kind: result.error.kind,
        message: secrets.redactText(words.message),
        ...(tail ? { stderrTail: secrets.redactText(tail) } : {}),
        ...(words.details !== undefined ? { details: secrets.redactText(words.details) } : {}),
        ...(words.data !== undefined ? { data: secrets.redactText(words.data) } : {}),
      },
      durationMs: now() - started,
    }
  } finally {
    await host.stop()
    host.dispose()
  }
}

function withoutLogFile(spec: AgentProcessSpec): AgentProcessSpec {
  const { logFile: _logFile, ...rest } = spec
  return rest
}

function lastLines(text: string, count = 40): string {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines.slice(-count).join('\n')
}

/**
 * Spawns the scripted agent as a real child over stdio and wires an AcpClientConnection to it, with
 * the minimal exit wiring the supervisor does for real: the child's exit closes the connection with
 * an AgentExitedError carrying the stderr tail. `killAll()` in afterEach leaves no orphans.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { AgentExitedError } from '../../../main/base/errors'
import { createAcpConnection } from '../../../main/acp/connection'
import type { AcpClientConnection, SessionUpdateNotification, TransportProblem } from '../../../main/acp/types'
import { scriptedAgentCommand } from '../../agents/command'

export interface AgentUnderTest {
  child: ChildProcessWithoutNullStreams
  connection: AcpClientConnection
  updates: SessionUpdateNotification[]
  problems: TransportProblem[]
  stderr: () => string
  /**
   * The stderr once it matches `pattern` (or once the agent's stderr closed): stderr and stdout are separate
   * pipes, so a line the agent logged before it answered may arrive after the answer on a loaded machine.
   */
  stderrMatching: (pattern: RegExp) => Promise<string>
  exited: Promise<{ code: number | null; signal: string | null }>
  /** Texts of agent_message_chunk updates, in order. */
  texts: () => string[]
}

const children = new Set<ChildProcessWithoutNullStreams>()
/** Process groups of detached agents: killed as a whole so grandchildren go too. */
const groups = new Set<number>()

export function startAgent(scenario: string, options: { v2?: boolean; maxMessageBytes?: number; detached?: boolean } = {}): AgentUnderTest {
  const { command, args } = scriptedAgentCommand(scenario, { v2: options.v2 })
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: options.detached ?? false })
  children.add(child)
  if (options.detached && child.pid) groups.add(child.pid)
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const connection = createAcpConnection({
    input: child.stdout,
    output: child.stdin,
    maxMessageBytes: options.maxMessageBytes,
    clientInfo: { name: 'bosun-test', version: '0.0.0' },
    elicitation: { form: true, url: true },
  })
  // EPIPE after the agent died is expected in crash tests.
  child.stdin.on('error', () => {})
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child)
      connection.close(new AgentExitedError(`The agent exited (code ${code})`, code, signal, stderr.slice(-2000)))
      resolve({ code, signal })
    })
  })
  const updates: SessionUpdateNotification[] = []
  const problems: TransportProblem[] = []
  connection.onDidReceiveUpdate((update) => updates.push(update))
  connection.onDidReportProblem((problem) => problems.push(problem))
  const texts = () =>
    updates
      .filter((u) => u.update.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.update.content as { text?: string } | undefined)?.text ?? '')
  const stderrMatching = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      if (pattern.test(stderr) || child.stderr.readableEnded) return resolve(stderr)
      const check = () => {
        if (!pattern.test(stderr) && !child.stderr.readableEnded) return
        child.stderr.off('data', check)
        child.stderr.off('end', check)
        resolve(stderr)
      }
      // Registered after the collecting listener above, so `stderr` already holds the chunk.
      child.stderr.on('data', check)
      child.stderr.on('end', check)
    })
  return { child, connection, updates, problems, stderr: () => stderr, stderrMatching, exited, texts }
}

export async function killAll(): Promise<void> {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
  groups.clear()
  const waits = [...children].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  )
  await Promise.all(waits)
  children.clear()
}

export const textPrompt = (text: string) => [{ type: 'text', text }]

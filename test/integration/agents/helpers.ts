import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AgentProcess, type AgentProcessOptions, type AgentProcessSpec } from '../../../main/agents/agent-process'
import type { AcpConnectionFactory } from '../../../main/agents/agent-host'
import { createAcpConnection } from '../../../main/acp/connection'
import { createMemoryLogger } from '../../../main/base/log'
import type { Result } from '../../../main/base/errors'

const here = dirname(fileURLToPath(import.meta.url))
export const fixtureAgent = resolve(here, '..', '..', 'fixtures', 'agents', 'fixture-agent.mjs')

export const testLogger = createMemoryLogger('agent')

export function fixtureSpec(flags: string[], overrides: Partial<AgentProcessSpec> = {}): AgentProcessSpec {
  return {
    agentId: 'fixture',
    name: 'fixture',
    command: process.execPath,
    args: [fixtureAgent, ...flags],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    cwd: here,
    ...overrides,
  }
}

/** The real ACP connection (main/acp/connection.ts) over the agent's pipes. */
export const realConnection: AcpConnectionFactory = ({ input, output, logger }) =>
  createAcpConnection({ input, output, logger, clientInfo: { name: 'bosun-test', version: '0.0.0' } })

/** Wraps AgentProcess.start and records every process it started (to check none survives). */
export function trackingStarter(): { started: AgentProcess[]; start: (spec: AgentProcessSpec, options: AgentProcessOptions) => Promise<Result<AgentProcess>> } {
  const started: AgentProcess[] = []
  return {
    started,
    async start(spec, options) {
      const result = await AgentProcess.start(spec, options)
      if (result.ok) started.push(result.value)
      return result
    },
  }
}

/** Gone = no such process, or a zombie nobody reaped yet (it runs nothing and holds nothing). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true
    throw error
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}

/**
 * Resolves when every pid is gone; rejects naming the survivors after `ms`. A killed process takes a
 * scheduler tick to die and there is no event for an unrelated pid, so this polls (briefly).
 */
export async function expectAllGone(pids: number[], ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    const alive = pids.filter((pid) => !isGone(pid))
    if (alive.length === 0) return
    if (Date.now() > deadline) throw new Error(`processes still alive: ${alive.join(', ')}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Resolves with the first match of `pattern` in the process's stderr (already written or still to come). */
export function waitForStderr(process: AgentProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  const now = process.stderrTail().match(pattern)
  if (now) return Promise.resolve(now)
  return new Promise((resolve, reject) => {
    const sub = process.onDidWriteStderr(() => {
      const match = process.stderrTail().match(pattern)
      if (!match) return
      sub.dispose()
      exitSub.dispose()
      resolve(match)
    })
    const exitSub = process.onDidExit((exit) => {
      sub.dispose()
      reject(new Error(`exited before writing ${pattern}: ${exit.stderrTail}`))
    })
  })
}

export const grandchildPid = async (process: AgentProcess): Promise<number> => Number((await waitForStderr(process, /GRANDCHILD_PID=(\d+)/))[1])

export { join }

/** Test homes: a temporary BOSUN_HOME with agent definitions pointing at the scripted test agent. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scriptedAgentCommand } from '../agents/command'

export interface TestAgent {
  id: string
  name: string
  scenario: string
  v2?: boolean
  env?: Record<string, string>
  /** More arguments for the scripted agent (`--wire-log <file>` …). */
  extraArgs?: string[]
  secretEnv?: string[]
  defaultCwd?: string
  /** Launch this instead of the scripted agent (the hostile agent, for one). */
  command?: { command: string; args: string[] }
  /**
   * The definition's `protocolVersion`. Default: 1 for the scripted v1 agent (as for presets and known
   * agents, so it sees Bosun's v1 client capabilities from its first start), else none. `'auto'`: none,
   * to test the first start of an unknown v1 agent.
   */
  protocolVersion?: 1 | 2 | 'auto'
}

export interface TestHome {
  home: string
  /** A folder usable as a session's working directory. */
  workspace: string
  cleanup(): void
}

export function createTestHome(agents: TestAgent[]): TestHome {
  const home = mkdtempSync(join(tmpdir(), 'bosun-home-'))
  const workspace = mkdtempSync(join(tmpdir(), 'bosun-workspace-'))
  const definitions = agents.map((agent) => {
    const { command, args } = agent.command ?? scriptedAgentCommand(agent.scenario, { v2: agent.v2 ?? false, extraArgs: agent.extraArgs })
    const protocolVersion = agent.protocolVersion ?? (agent.command || agent.v2 ? 'auto' : 1)
    return {
      ...(protocolVersion !== 'auto' ? { protocolVersion } : {}),
      id: agent.id,
      name: agent.name,
      command,
      args,
      env: agent.env ?? {},
      secretEnv: agent.secretEnv ?? [],
      defaultCwd: agent.defaultCwd ?? workspace,
    }
  })
  writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: definitions }, null, 2))
  return {
    home,
    workspace,
    cleanup() {
      rmSync(home, { recursive: true, force: true })
      rmSync(workspace, { recursive: true, force: true })
    },
  }
}

/**
 * First run: which of the well-known ACP agents are already installed. Each known command is looked up on
 * PATH and asked `--version`, in its own process group with a scrubbed environment (no keys, no Bosun
 * variables), a deadline (then SIGKILL of the group) and a bounded output.
 */
import { spawn } from 'node:child_process'
import { basename } from 'node:path'
import { scrubEnv } from '../config/launch'
import { findOnPath } from '../config/validate'

export interface KnownAgent {
  key: string
  name: string
  command: string
  args: string[]
  /** The preset with its key variable and description. */
  presetId: string
}

/** The agents Bosun looks for, with the arguments that put each in ACP mode. All speak ACP v1. */
export const KNOWN_AGENTS: readonly KnownAgent[] = [
  { key: 'claude', name: 'Claude', command: 'claude-agent-acp', args: [], presetId: 'claude' },
  { key: 'codex', name: 'Codex', command: 'codex-acp', args: [], presetId: 'codex' },
  { key: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], presetId: 'gemini' },
  { key: 'goose', name: 'goose', command: 'goose', args: ['acp'], presetId: 'goose' },
  { key: 'opencode', name: 'OpenCode', command: 'opencode', args: ['acp'], presetId: 'opencode' },
  { key: 'qwen', name: 'Qwen Code', command: 'qwen', args: ['--acp'], presetId: 'qwen' },
  { key: 'kilo', name: 'Kilo Code', command: 'kilo', args: ['acp'], presetId: 'kilo' },
  { key: 'copilot', name: 'GitHub Copilot', command: 'copilot', args: ['--acp'], presetId: 'copilot' },
]

export interface DetectedAgentInfo {
  agent: KnownAgent
  path: string
  version: string | null
}

export interface DetectOptions {
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
  platform?: NodeJS.Platform
}

export async function detectAgents(options: DetectOptions = {}): Promise<DetectedAgentInfo[]> {
  const env = options.env ?? process.env
  const found = await Promise.all(
    KNOWN_AGENTS.map(async (agent) => {
      const path = await findOnPath(agent.command, env, options.platform)
      if (!path) return null
      return { agent, path, version: await readVersion(path, scrubEnv(env), options.timeoutMs ?? 5_000) }
    }),
  )
  return found.filter((f): f is DetectedAgentInfo => f !== null)
}

/** Whether `command` names one of the known agents (by its file name). */
export function knownAgentForCommand(command: string): KnownAgent | undefined {
  const name = basename(command).replace(/\.(exe|cmd)$/i, '')
  return KNOWN_AGENTS.find((a) => a.command === name)
}

const MAX_OUTPUT = 4096

/** The first non-empty line `path --version` prints (stdout, else stderr), or null on timeout or failure. */
export function readVersion(path: string, env: Record<string, string>, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let out = ''
    let err = ''
    let done = false
    const isWindows = process.platform === 'win32'
    const child = spawn(path, ['--version'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: !isWindows, windowsHide: true })
    const finish = (value: string | null) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(value)
    }
    const killGroup = () => {
      try {
        if (!isWindows && child.pid) process.kill(-child.pid, 'SIGKILL')
        else child.kill('SIGKILL')
      } catch {
        // Already gone.
      }
    }
    const timer = setTimeout(() => {
      killGroup()
      finish(null)
    }, timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      if (out.length < MAX_OUTPUT) out += chunk.toString('utf8')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < MAX_OUTPUT) err += chunk.toString('utf8')
    })
    child.on('error', () => finish(null))
    child.on('close', (code) => {
      // A program that leaves children behind (a wrapper script) must not keep them.
      killGroup()
      const line = firstLine(out) ?? firstLine(err)
      finish(code === 0 || line ? (line ?? null) : null)
    })
  })
}

function firstLine(text: string): string | null {
  // eslint-disable-next-line no-control-regex
  const line = text.split(/\r?\n/).map((l) => l.replace(/[\u0000-\u001f\u007f]/g, '').trim()).find(Boolean)
  return line ? line.slice(0, 200) : null
}

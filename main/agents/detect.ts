/**
 * First run: which of the well-known ACP agents are already installed. Each known command is looked up on
 * PATH and asked `--version`, in its own process group with a scrubbed environment (no keys, no Bosun
 * variables), a deadline (then SIGKILL of the group) and a bounded output.
 */
import { spawn } from 'node:child_process'
import { realpath, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { scrubEnv } from '../config/launch'
import { findOnPath } from '../config/validate'
import { KNOWN_AGENTS, type KnownAgent } from '../config/known-agents'

export { KNOWN_AGENTS, type KnownAgent }

export interface DetectedAgentInfo {
  agent: KnownAgent
  path: string
  version: string | null
  /** Its `--version` is still being read (it did not answer within the detection's quick wait). */
  versionPending?: boolean
}

export interface DetectOptions {
  env?: NodeJS.ProcessEnv
  /** How long one `--version` may take before its process group is killed (the version is then unknown). */
  timeoutMs?: number
  platform?: NodeJS.Platform
}

/** How long a `--version` may take by default: Gemini CLI 0.61 took 13 s on a busy machine (it loads its whole bundle). */
export const VERSION_TIMEOUT_MS = 20_000

/** How long a quick detection waits for versions before it answers without the ones still being read. */
export const QUICK_VERSION_WAIT_MS = 1_000

/** Every known command found on PATH, with its version (each asked at once, under the deadline). */
export async function detectAgents(options: DetectOptions = {}): Promise<DetectedAgentInfo[]> {
  return new AgentDetector(options).detect({ waitForVersions: true })
}

/**
 * Detection for the add-agent screen: the known commands are looked up on PATH at once, and each one's `--version`
 * is read once per program file (its real path, size and change time), however often the screen asks. A quick
 * detection answers with the versions it has after {@link QUICK_VERSION_WAIT_MS} (the rest `versionPending`, still
 * being read), so a slow `--version` does not hold the list up; one with `waitForVersions` waits for them (each
 * bounded by the timeout). A version that could not be read is asked again next time.
 */
export class AgentDetector {
  /** By agent key (so at most one per known agent): the file it was read from and the read. */
  private readonly versions = new Map<string, { stamp: string; read: Promise<string | null> }>()

  constructor(private readonly options: DetectOptions & { quickWaitMs?: number } = {}) {}

  async detect({ waitForVersions }: { waitForVersions: boolean }): Promise<DetectedAgentInfo[]> {
    const env = this.options.env ?? process.env
    const found = await Promise.all(
      KNOWN_AGENTS.map(async (agent): Promise<DetectedAgentInfo | null> => {
        const path = await findOnPath(agent.command, env, this.options.platform)
        if (!path) return null
        const { read } = await this.versionRead(agent.key, path, env)
        const version = waitForVersions ? await read : await within(read, this.options.quickWaitMs ?? QUICK_VERSION_WAIT_MS)
        return version === PENDING ? { agent, path, version: null, versionPending: true } : { agent, path, version }
      }),
    )
    return found.filter((f): f is DetectedAgentInfo => f !== null)
  }

  private async versionRead(key: string, path: string, env: NodeJS.ProcessEnv): Promise<{ read: Promise<string | null> }> {
    const stamp = await fileStamp(path)
    // No await between the look-up and the set: detections at once share one read.
    const kept = this.versions.get(key)
    if (kept && kept.stamp === stamp) return kept
    const read = readVersion(path, scrubEnv(env), this.options.timeoutMs ?? VERSION_TIMEOUT_MS)
    const entry = { stamp, read }
    this.versions.set(key, entry)
    void read.then((version) => {
      if (version === null && this.versions.get(key) === entry) this.versions.delete(key)
    })
    return entry
  }
}

const PENDING = Symbol('pending')

/** `promise`'s value if it settles within `ms`, else {@link PENDING} (the promise goes on). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof PENDING> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<typeof PENDING>((resolve) => (timer = setTimeout(() => resolve(PENDING), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** What identifies the program file behind `path` (a reinstall changes it), or the path when it cannot be read. */
async function fileStamp(path: string): Promise<string> {
  try {
    const real = await realpath(path)
    const s = await stat(real)
    return `${real}\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\0${s.ino}`
  } catch {
    return `${path}\0?`
  }
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

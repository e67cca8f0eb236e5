/**
 * Installs, updates and uninstalls registry agents. `npx` / `uvx`: the runner must be on PATH, then the
 * definition is written. `binary`: the archive for this OS and CPU is downloaded into the agent's folder,
 * its SHA-256 checked when the registry gives one, extracted into a temp folder beside it and renamed into
 * `<home>/agents/<id>/<version>/`; the command gets its executable bit; then the definition is written.
 *
 * Definitions are written only through the config service's public calls (`saveAgentDefinition`,
 * `removeAgentDefinition`), so every check those make applies here too. What was installed where is kept
 * in `<home>/registry/installed.json`.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { AgentDraft } from '../../common/contract/agents'
import { writeFileAtomic } from '../base/atomic-write'
import { fail, ok, type FailureKind, type Result } from '../base/errors'
import type { Logger } from '../base/log'
import type { AgentConfigService } from '../config/agent-config-service'
import { joinArgs } from '../config/split-args'
import { findOnPath } from '../config/validate'
import { DownloadError, downloadToFile } from './download'
import { DEFAULT_EXTRACT_LIMITS, extractArchive, prepareCommand, sniffArchive, UnsafeArchiveError, type ExtractLimits } from './extract'
import { currentPlatformTarget, type DistributionKind, type PlatformTarget, type RegistryAgent } from './registry-schema'
import { keepAside, readSettingsFile } from '../base/settings-file'

export type InstallPhase = 'checking' | 'downloading' | 'verifying' | 'extracting' | 'saving'

export interface InstallProgress {
  registryId: string
  phase: InstallPhase
  received?: number
  total?: number | null
}

/** Why an install was refused, in `Failure.data.reason`. */
export type InstallRefusal =
  | 'runner-missing'
  | 'unsupported-platform'
  | 'no-distribution'
  | 'download-failed'
  | 'too-large'
  | 'checksum-mismatch'
  | 'unsafe-archive'
  | 'definition-refused'
  | 'busy'

export interface InstalledRecord {
  agentId: string
  version: string
  kind: DistributionKind
}

const installedFileSchema = z.looseObject({
  version: z.literal(1),
  installs: z.record(z.string(), z.looseObject({ agentId: z.string(), version: z.string(), kind: z.enum(['binary', 'npx', 'uvx']) })),
})

export interface InstallerOptions {
  home: string
  config: Pick<AgentConfigService, 'definitions' | 'handlers'>
  baseEnv?: NodeJS.ProcessEnv
  logger: Logger
  maxDownloadBytes?: number
  extractLimits?: ExtractLimits
  platform?: PlatformTarget | null
  onProgress?: (progress: InstallProgress) => void
}

const RUNNER_HELP: Record<'npx' | 'uvx', string> = {
  npx: 'npx was not found on PATH. It comes with Node.js: install Node.js 18 or newer (https://nodejs.org), then try again.',
  uvx: 'uvx was not found on PATH. It comes with uv: install uv (https://docs.astral.sh/uv/getting-started/installation/), then try again.',
}

const refuse = (reason: InstallRefusal, message: string, kind: 'invalid-argument' | 'io-error' | 'cancelled' = 'invalid-argument') =>
  fail({ kind, message, data: { reason } })

export class RegistryInstaller {
  private readonly file: string
  private readonly running = new Map<string, AbortController>()
  private readonly uninstalling = new Set<string>()
  private queue: Promise<unknown> = Promise.resolve()
  private readonly baseEnv: NodeJS.ProcessEnv
  private readonly platform: PlatformTarget | null

  constructor(private readonly options: InstallerOptions) {
    this.file = join(options.home, 'registry', 'installed.json')
    this.baseEnv = options.baseEnv ?? process.env
    this.platform = options.platform === undefined ? currentPlatformTarget() : options.platform
  }

  /** The folder an agent's versions live in. */
  agentDir(registryId: string): string {
    return join(this.options.home, 'agents', registryId)
  }

  /** The distributions of `agent` this machine can use, best first (a binary needs no runtime). */
  usableKinds(agent: RegistryAgent): DistributionKind[] {
    const kinds: DistributionKind[] = []
    if (this.platform && agent.distribution.binary?.[this.platform]) kinds.push('binary')
    if (agent.distribution.npx) kinds.push('npx')
    if (agent.distribution.uvx) kinds.push('uvx')
    return kinds
  }

  /** Installed records whose definition still exists. */
  async installed(): Promise<Record<string, InstalledRecord>> {
    const all = await this.readIndex()
    return Object.fromEntries(Object.entries(all).filter(([, r]) => this.options.config.definitions.get(r.agentId)))
  }

  cancel(registryId: string): boolean {
    const controller = this.running.get(registryId)
    controller?.abort()
    return controller !== undefined
  }

  cancelAll(): void {
    for (const controller of this.running.values()) controller.abort()
  }

  /** Installs `agent`, or updates it in place when it is installed (the person's settings kept). */
  async install(agent: RegistryAgent, requested?: DistributionKind): Promise<Result<{ agentId: string; version: string; kind: DistributionKind; updated: boolean }>> {
    if (this.running.has(agent.id)) return refuse('busy', `${agent.name} is already being installed`)
    const controller = new AbortController()
    this.running.set(agent.id, controller)
    try {
      return await this.installNow(agent, requested, controller.signal)
    } finally {
      this.running.delete(agent.id)
    }
  }

  private async installNow(agent: RegistryAgent, requested: DistributionKind | undefined, signal: AbortSignal) {
    const progress = (phase: InstallPhase, extra: Partial<InstallProgress> = {}) => this.options.onProgress?.({ registryId: agent.id, phase, ...extra })
    progress('checking')
    const usable = this.usableKinds(agent)
    const previous = (await this.readIndex())[agent.id]
    const previousDef = previous ? this.options.config.definitions.get(previous.agentId) : undefined
    const kind = requested ?? (previousDef && usable.includes(previous!.kind) ? previous!.kind : usable[0])
    if (!kind || !usable.includes(kind)) {
      if (requested === 'binary' || (!requested && agent.distribution.binary))
        return refuse('unsupported-platform', `${agent.name} has no download for this computer (${this.platform ?? `${process.platform}-${process.arch}`}).`)
      return refuse('no-distribution', `${agent.name} cannot be installed with ${requested ?? 'any method Bosun knows'}.`)
    }

    let command: string
    let args: string[]
    let env: Record<string, string>
    let newDir: string | undefined
    if (kind === 'npx' || kind === 'uvx') {
      const dist = agent.distribution[kind]!
      if (!(await findOnPath(kind, this.baseEnv))) return refuse('runner-missing', RUNNER_HELP[kind])
      command = kind
      args = kind === 'npx' ? ['-y', dist.package, ...dist.args] : [dist.package, ...dist.args]
      env = dist.env
    } else {
      const target = agent.distribution.binary![this.platform!]!
      const unpacked = await this.fetchBinary(agent, target, signal, progress)
      if (!unpacked.ok) return unpacked
      newDir = unpacked.value.dir
      command = unpacked.value.command
      args = target.args
      env = target.env
    }

    progress('saving')
    const draft: AgentDraft = previousDef
      ? {
          // An update: only how it is launched changes; name, folder, keys, variables the person set, defaults stay.
          id: previousDef.id,
          name: previousDef.name,
          command,
          argsText: joinArgs(args),
          env: Object.entries({ ...env, ...previousDef.env }).map(([name, value]) => ({ name, value })),
          secretEnv: previousDef.secretEnv,
          defaultCwd: previousDef.defaultCwd ?? '',
          ...(previousDef.protocolVersion !== undefined ? { protocolVersion: previousDef.protocolVersion } : {}),
          ...(previousDef.defaultMode !== undefined ? { defaultMode: previousDef.defaultMode } : {}),
          ...(previousDef.defaultConfigOptions !== undefined ? { defaultConfigOptions: previousDef.defaultConfigOptions } : {}),
          ...(previousDef.presetId !== undefined ? { presetId: previousDef.presetId } : {}),
        }
      : {
          name: this.freeName(agent.name),
          command,
          argsText: joinArgs(args),
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
          secretEnv: [],
          defaultCwd: '',
          // Agents in the registry speak ACP v1 (its CI checks their v1 handshake): offer it first, no restart.
          protocolVersion: 1,
          presetId: `registry:${agent.id}`,
        }
    const saved = await this.options.config.handlers.saveAgentDefinition({ draft })
    if (!saved.ok) {
      if (newDir) await fs.rm(newDir, { recursive: true, force: true })
      const detail = saved.error.data && typeof saved.error.data === 'object' ? Object.values(saved.error.data as Record<string, string>)[0] : undefined
      return refuse('definition-refused', `The agent definition was not saved: ${detail ?? saved.error.message}`)
    }
    const agentId = saved.value.agent.id
    await this.updateIndex((index) => ({ ...index, [agent.id]: { agentId, version: agent.version, kind } }))
    // The old version's files go once the definition points at the new ones (the folder its command was in).
    if (previous?.kind === 'binary' && newDir) await this.removeOtherVersions(agent.id, newDir)
    if (previous?.kind === 'binary' && kind !== 'binary') await fs.rm(this.agentDir(agent.id), { recursive: true, force: true })
    this.options.logger.info(`${previousDef ? 'updated' : 'installed'} ${agent.id} ${agent.version} (${kind}) as ${agentId}`)
    return ok({ agentId, version: agent.version, kind, updated: previousDef !== undefined })
  }

  /** Every version folder of `registryId` but `keep` (downloads and extractions under way have their own names). */
  private async removeOtherVersions(registryId: string, keep: string): Promise<void> {
    const agentDir = this.agentDir(registryId)
    for (const name of await fs.readdir(agentDir).catch(() => [] as string[])) {
      const path = join(agentDir, name)
      if (path !== keep && !name.startsWith('.')) await fs.rm(path, { recursive: true, force: true })
    }
  }

  /** Download, verify, extract into a temp folder, then rename into `<id>/<version>/` (beside one already there). */
  private async fetchBinary(
    agent: RegistryAgent,
    target: NonNullable<RegistryAgent['distribution']['binary']>[PlatformTarget] & object,
    signal: AbortSignal,
    progress: (phase: InstallPhase, extra?: Partial<InstallProgress>) => void,
  ): Promise<Result<{ dir: string; command: string }>> {
    const agentDir = this.agentDir(agent.id)
    await fs.mkdir(agentDir, { recursive: true })
    const nonce = randomBytes(6).toString('hex')
    const archive = join(agentDir, `.download-${nonce}`)
    const temp = join(agentDir, `.extract-${nonce}`)
    try {
      let lastSent = 0
      progress('downloading', { received: 0, total: null })
      let sha256: string
      try {
        ;({ sha256 } = await downloadToFile(target.archive, archive, {
          maxBytes: this.options.maxDownloadBytes ?? 1024 * 1024 * 1024,
          signal,
          onProgress: ({ received, total }) => {
            const now = Date.now()
            if (now - lastSent >= 100 || received === total) {
              lastSent = now
              progress('downloading', { received, total })
            }
          },
        }))
      } catch (error) {
        if (error instanceof DownloadError) {
          if (error.failure.reason === 'cancelled') return refuse('download-failed', `Installing ${agent.name} was cancelled.`, 'cancelled')
          return refuse(error.failure.reason === 'too-large' ? 'too-large' : 'download-failed', `Could not download ${agent.name}: ${error.message}`, 'io-error')
        }
        throw error
      }
      progress('verifying')
      if (target.sha256 && sha256 !== target.sha256) {
        return refuse('checksum-mismatch', `The download of ${agent.name} does not match the registry's checksum (expected ${target.sha256.slice(0, 12)}…, got ${sha256.slice(0, 12)}…). Nothing was installed.`)
      }
      const kind = await sniffArchive(archive)
      if (!kind) return refuse('unsafe-archive', `The download of ${agent.name} is not a tar.gz or zip archive. Nothing was installed.`)
      if (signal.aborted) return refuse('download-failed', `Installing ${agent.name} was cancelled.`, 'cancelled')
      progress('extracting')
      await fs.mkdir(temp)
      try {
        await extractArchive(archive, kind, temp, this.options.extractLimits ?? DEFAULT_EXTRACT_LIMITS)
        await prepareCommand(temp, target.cmd)
      } catch (error) {
        if (error instanceof UnsafeArchiveError) return refuse('unsafe-archive', `The archive of ${agent.name} was refused: ${error.message} Nothing was installed.`)
        throw error
      }
      // Never into the folder of a program already there (the version the definition runs, installed again from other
      // contents): its command would stay the one the person confirmed and run what was never shown. Beside it, the
      // new command differs, so saving it asks the person; the folder left behind goes once the definition moves.
      const free = !(await fs.stat(join(agentDir, agent.version)).catch(() => undefined))
      const dir = join(agentDir, free ? agent.version : `${agent.version}-${nonce}`)
      await fs.rename(temp, dir)
      return ok({ dir, command: join(dir, ...target.cmd.split('/')) })
    } finally {
      await fs.rm(archive, { force: true })
      await fs.rm(temp, { recursive: true, force: true })
    }
  }

  /** Removes the definition (and its keychain secrets) and every file installed for `registryId`. */
  async uninstall(registryId: string): Promise<Result<void>> {
    const record = (await this.readIndex())[registryId]
    if (!record) return fail({ kind: 'not-found', message: `${registryId} is not installed` })
    if (this.options.config.definitions.get(record.agentId)) {
      // Its removal event must not start a second cleanup (definitionRemoved) racing this one.
      this.uninstalling.add(record.agentId)
      try {
        const removed = await this.options.config.handlers.removeAgentDefinition({ agentId: record.agentId })
        if (!removed.ok && removed.error.kind !== 'not-found') return fail({ ...removed.error, kind: removed.error.kind as FailureKind })
      } finally {
        this.uninstalling.delete(record.agentId)
      }
    }
    await this.forget(registryId)
    return ok(undefined)
  }

  /** A definition was removed elsewhere (the Agents list): its installed files go too. */
  async definitionRemoved(agentId: string): Promise<void> {
    if (this.uninstalling.has(agentId)) return
    const index = await this.readIndex()
    for (const [registryId, record] of Object.entries(index)) if (record.agentId === agentId) await this.forget(registryId)
  }

  private async forget(registryId: string): Promise<void> {
    this.cancel(registryId)
    await fs.rm(this.agentDir(registryId), { recursive: true, force: true })
    await this.updateIndex((index) => {
      const next = { ...index }
      delete next[registryId]
      return next
    })
    this.options.logger.info(`uninstalled ${registryId}`)
  }

  private freeName(name: string): string {
    const taken = new Set(this.options.config.definitions.list().map((d) => d.name.trim().toLocaleLowerCase()))
    if (!taken.has(name.toLocaleLowerCase())) return name
    for (let n = 2; ; n++) if (!taken.has(`${name} ${n}`.toLocaleLowerCase())) return `${name} ${n}`
  }

  /** The installs recorded (none when the file is missing or cannot be used). */
  private async readIndex(): Promise<Record<string, InstalledRecord>> {
    return (await this.readIndexFile()) ?? {}
  }

  /** The installs the file records, or null when it is there but cannot be used (not readable, not an index). */
  private async readIndexFile(): Promise<Record<string, InstalledRecord> | null> {
    const read = await readSettingsFile(this.file)
    if (read.kind === 'missing') return {}
    if (read.kind === 'unreadable') return null
    try {
      const parsed = installedFileSchema.safeParse(JSON.parse(read.text))
      return parsed.success ? parsed.data.installs : null
    } catch {
      return null
    }
  }

  private updateIndex(change: (index: Record<string, InstalledRecord>) => Record<string, InstalledRecord>): Promise<void> {
    const run = this.queue.then(async () => {
      // A file that cannot be used is copied aside before this update replaces it, or the update is refused.
      const current = await this.readIndexFile()
      if (current === null && !(await keepAside(this.file, 'corrupt'))) throw new Error(`${this.file} cannot be used, and no copy of it could be kept; not replacing it`)
      const next = change(current ?? {})
      await writeFileAtomic(this.file, JSON.stringify({ version: 1, installs: next }, null, 2) + '\n')
    })
    this.queue = run.catch(() => undefined)
    return run
  }
}

/**
 * The ACP Registry's `registry.json`, read as untrusted input (https://agentclientprotocol.com/registry,
 * format: the registry repository's FORMAT.md and agent.schema.json).
 *
 * ```json
 * { "version": "1.0.0", "agents": [ { "id": "codex-acp", "name": "Codex CLI", "version": "0.9.2",
 *     "description": "…", "distribution": { "binary": { "linux-x86_64": { "archive": "https://…", "cmd": "./codex-acp" } },
 *     "npx": { "package": "@scope/pkg@1.2.3", "args": ["--acp"] } } } ] }
 * ```
 *
 * Liberal in what it accepts: unknown fields and platform keys are ignored, one bad entry is skipped (and
 * counted), not the whole file. Strict in what it keeps: every string is bounded, ids and versions are safe
 * folder names, URLs are https (http only to this machine), packages cannot pose as options, commands stay
 * inside their archive, and environment variables that change how any program loads are dropped.
 */
import { z } from 'zod'
import { settableEnv } from '../config/env-names'

export const REGISTRY_MAX_BYTES = 4 * 1024 * 1024
export const REGISTRY_MAX_AGENTS = 500

export const PLATFORM_TARGETS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const
export type PlatformTarget = (typeof PLATFORM_TARGETS)[number]

export type DistributionKind = 'binary' | 'npx' | 'uvx'

export interface PackageDistribution {
  package: string
  args: string[]
  env: Record<string, string>
}

export interface BinaryTarget {
  archive: string
  /** Relative to the extracted archive, normalised (no `./`). */
  cmd: string
  args: string[]
  env: Record<string, string>
  /** Lower-case hex, when the registry gives one. */
  sha256?: string
}

export interface RegistryAgent {
  id: string
  name: string
  version: string
  description: string
  repository?: string
  website?: string
  authors: string[]
  license?: string
  /** Absolute http(s) URL (a relative one is resolved against the registry's URL). */
  icon?: string
  distribution: {
    npx?: PackageDistribution
    uvx?: PackageDistribution
    binary?: Partial<Record<PlatformTarget, BinaryTarget>>
  }
}

export interface ParsedRegistry {
  agents: RegistryAgent[]
  /** Entries dropped as invalid, with why (bounded). */
  skipped: { index: number; id?: string; reason: string }[]
}


const text = (max: number) => z.string().trim().min(1).max(max)
const id = z.string().min(1).max(64).regex(/^[a-z][a-z0-9-]*$/)
/** Semantic version (a pre-release or build tail allowed); also a safe folder name. */
const version = z.string().max(64).regex(/^[0-9]+\.[0-9]+\.[0-9]+(?:[-+][0-9A-Za-z.+-]*)?$/)
const args = z.array(z.string().max(4096)).max(64).default([])
const envRecord = z
  .record(z.string().max(256), z.string().max(8192))
  .default({})
  // Variables that change how programs load or what they run: a registry entry may not set them.
  .transform((env) => settableEnv(env).env)
  .refine((env) => Object.keys(env).length <= 64, 'too many environment variables')

/** npm spec (`@scope/name`, `name@1.2.3`) or PyPI spec (`name`, `name==1.2`, `name@1.2`, `name[extra]`); never an option. */
const npmPackage = z.string().max(214).regex(/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[A-Za-z0-9^~<>=.*+_-]+)?$/)
const pypiPackage = z.string().max(214).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9._,-]+\])?(?:(?:==|>=|<=|~=|@)[A-Za-z0-9.*+!_-]+)?$/)

const packageDistribution = (pkg: z.ZodString) => z.looseObject({ package: pkg, args, env: envRecord })

/** `./bin/agent` → `bin/agent`; refuses absolute paths, `..`, backslash tricks and empty names. */
export function normaliseCmd(cmd: string): string | null {
  if (cmd.length === 0 || cmd.length > 1024 || cmd.includes('\0')) return null
  const slashed = cmd.replace(/\\/g, '/')
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) return null
  const parts = slashed.split('/').filter((p) => p !== '' && p !== '.')
  if (parts.length === 0 || parts.some((p) => p === '..')) return null
  return parts.join('/')
}

const binaryTarget = z.looseObject({
  archive: z.string().max(4096),
  cmd: z.string().max(1024),
  args,
  env: envRecord,
  sha256: z
    .string()
    .regex(/^(?:sha256:)?[0-9a-fA-F]{64}$/)
    .transform((s) => s.replace(/^sha256:/, '').toLowerCase())
    .optional(),
})

const entrySchema = z.looseObject({
  id,
  name: text(200),
  version,
  description: text(2000),
  repository: z.string().max(2048).optional().catch(undefined),
  website: z.string().max(2048).optional().catch(undefined),
  authors: z.array(z.string().max(200)).max(20).optional().catch(undefined),
  license: z.string().max(200).optional().catch(undefined),
  icon: z.string().max(4096).optional().catch(undefined),
  distribution: z.looseObject({
    binary: z.record(z.string().max(64), z.unknown()).optional(),
    npx: z.unknown().optional(),
    uvx: z.unknown().optional(),
  }),
})

const fileSchema = z.looseObject({ agents: z.array(z.unknown()) })

/** Loopback hosts, where plain http is acceptable (a registry or mirror on this machine, the tests). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h)
}

/** An absolute URL Bosun may download from: https anywhere, http only to loopback, no credentials in it. */
export function safeDownloadUrl(raw: string, base?: string): string | null {
  let url: URL
  try {
    url = base ? new URL(raw, base) : new URL(raw)
  } catch {
    return null
  }
  if (url.username || url.password) return null
  if (url.protocol === 'https:') return url.href
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.href
  return null
}

/** A link shown to the person (repository, website): https or http only. */
function safeLink(raw: string | undefined): string | undefined {
  if (!raw) return undefined
  try {
    const url = new URL(raw)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined
  } catch {
    return undefined
  }
}

export type RegistryParse = { ok: true; value: ParsedRegistry } | { ok: false; message: string }

/** Parses the registry text fetched from `baseUrl` (used to resolve relative icon URLs). */
export function parseRegistry(textBody: string, baseUrl: string): RegistryParse {
  if (textBody.length > REGISTRY_MAX_BYTES) return { ok: false, message: `The registry is larger than ${REGISTRY_MAX_BYTES / 1024 / 1024} MiB` }
  let json: unknown
  try {
    json = JSON.parse(textBody)
  } catch (error) {
    return { ok: false, message: `The registry is not valid JSON: ${(error as Error).message.slice(0, 200)}` }
  }
  const file = fileSchema.safeParse(json)
  if (!file.success) return { ok: false, message: 'The registry has no "agents" list' }
  const agents: RegistryAgent[] = []
  const skipped: ParsedRegistry['skipped'] = []
  const seen = new Set<string>()
  for (const [index, raw] of file.data.agents.entries()) {
    if (agents.length >= REGISTRY_MAX_AGENTS) {
      skipped.push({ index, reason: `more than ${REGISTRY_MAX_AGENTS} agents` })
      continue
    }
    const parsed = parseEntry(raw, baseUrl)
    if (!parsed.ok) {
      if (skipped.length < 100) skipped.push({ index, ...(parsed.id ? { id: parsed.id } : {}), reason: parsed.reason })
      continue
    }
    if (seen.has(parsed.agent.id)) {
      if (skipped.length < 100) skipped.push({ index, id: parsed.agent.id, reason: 'duplicate id' })
      continue
    }
    seen.add(parsed.agent.id)
    agents.push(parsed.agent)
  }
  return { ok: true, value: { agents, skipped } }
}

type EntryParse = { ok: true; agent: RegistryAgent } | { ok: false; id?: string; reason: string }

function parseEntry(raw: unknown, baseUrl: string): EntryParse {
  const rawId = typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string' ? String((raw as { id: string }).id).slice(0, 64) : undefined
  const entry = entrySchema.safeParse(raw)
  if (!entry.success) {
    const issue = entry.error.issues[0]
    return { ok: false, ...(rawId ? { id: rawId } : {}), reason: `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}` }
  }
  const e = entry.data
  const distribution: RegistryAgent['distribution'] = {}
  const npx = packageDistribution(npmPackage).safeParse(e.distribution.npx)
  if (e.distribution.npx !== undefined && npx.success) distribution.npx = { package: npx.data.package, args: npx.data.args, env: npx.data.env }
  const uvx = packageDistribution(pypiPackage).safeParse(e.distribution.uvx)
  if (e.distribution.uvx !== undefined && uvx.success) distribution.uvx = { package: uvx.data.package, args: uvx.data.args, env: uvx.data.env }
  if (e.distribution.binary) {
    const targets: Partial<Record<PlatformTarget, BinaryTarget>> = {}
    for (const [key, value] of Object.entries(e.distribution.binary)) {
      if (!(PLATFORM_TARGETS as readonly string[]).includes(key)) continue
      const target = binaryTarget.safeParse(value)
      if (!target.success) continue
      const archive = safeDownloadUrl(target.data.archive)
      const cmd = normaliseCmd(target.data.cmd)
      if (!archive || !cmd) continue
      targets[key as PlatformTarget] = {
        archive,
        cmd,
        args: target.data.args,
        env: target.data.env,
        ...(target.data.sha256 ? { sha256: target.data.sha256 } : {}),
      }
    }
    if (Object.keys(targets).length > 0) distribution.binary = targets
  }
  if (!distribution.npx && !distribution.uvx && !distribution.binary) return { ok: false, id: e.id, reason: 'no usable distribution' }
  const agent: RegistryAgent = {
    id: e.id,
    name: e.name,
    version: e.version,
    description: e.description,
    authors: (e.authors ?? []).map((a) => a.trim()).filter(Boolean),
    distribution,
  }
  const repository = safeLink(e.repository)
  if (repository) agent.repository = repository
  const website = safeLink(e.website)
  if (website) agent.website = website
  if (e.license?.trim()) agent.license = e.license.trim()
  const icon = e.icon ? safeDownloadUrl(e.icon, baseUrl) : null
  if (icon) agent.icon = icon
  return { ok: true, agent }
}

/** Compares two registry versions (numeric major.minor.patch, then a release beats a pre-release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^(\d+)\.(\d+)\.(\d+)(-[^+]*)?/.exec(v)
    return m ? { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? '' } : { nums: [0, 0, 0], pre: v }
  }
  const x = parse(a)
  const y = parse(b)
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return x.nums[i]! - y.nums[i]!
  if (x.pre === y.pre) return 0
  if (!x.pre) return 1
  if (!y.pre) return -1
  return x.pre < y.pre ? -1 : 1
}

/** This machine's registry platform key, or null when the registry has none for it. */
export function currentPlatformTarget(platform: NodeJS.Platform = process.platform, arch: string = process.arch): PlatformTarget | null {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : null
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : null
  return os && cpu ? (`${os}-${cpu}` as PlatformTarget) : null
}

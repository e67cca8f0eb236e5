/**
 * Fetches the ACP Registry from its URL (a setting), keeps the last good copy in Bosun's home, and falls
 * back to that copy when the network fails. Files (all under `<home>/registry/`):
 *
 * - `settings.json`  `{ "url": "https://…/registry.json" }` (absent: the default URL)
 * - `registry.json`  the last copy that parsed, as fetched
 * - `meta.json`      `{ "url": …, "fetchedAt": <epoch ms> }` of that copy
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../base/atomic-write'
import { downloadToBuffer, DownloadError } from './download'
import { parseRegistry, REGISTRY_MAX_BYTES, safeDownloadUrl, type ParsedRegistry } from './registry-schema'
import { readSettingsText } from '../base/settings-file'

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json'

/**
 * The registry used when the person set none: the official one, or `BOSUN_REGISTRY_URL` (the tests point it at a
 * closed port on this machine, so no test reaches the network).
 */
export function defaultRegistryUrl(): string {
  const fromEnv = process.env.BOSUN_REGISTRY_URL?.trim()
  return fromEnv && safeDownloadUrl(fromEnv) ? fromEnv : DEFAULT_REGISTRY_URL
}

export interface RegistrySnapshot extends ParsedRegistry {
  url: string
  /** When this copy was fetched (epoch ms). */
  fetchedAt: number
  /** `cache`: the network failed (`offlineReason`) and this is the last copy. */
  source: 'network' | 'cache'
  offlineReason?: string
}

export type RegistryLoad = { ok: true; value: RegistrySnapshot } | { ok: false; message: string }

const settingsSchema = z.looseObject({ url: z.string().max(4096).optional() })
const metaSchema = z.looseObject({ url: z.string(), fetchedAt: z.number() })

export interface RegistryClientOptions {
  home: string
  now?: () => number
  /** Reuse a copy fetched less than this long ago without asking the network (default 10 min). */
  freshMs?: number
}

export class RegistryClient {
  private readonly dir: string
  private memory: RegistrySnapshot | undefined
  private inflight: Promise<RegistryLoad> | undefined
  private readonly now: () => number

  constructor(private readonly options: RegistryClientOptions) {
    this.dir = join(options.home, 'registry')
    this.now = options.now ?? Date.now
  }

  async getUrl(): Promise<string> {
    try {
      const parsed = settingsSchema.safeParse(JSON.parse(await readSettingsText(join(this.dir, 'settings.json'))))
      if (parsed.success && parsed.data.url && safeDownloadUrl(parsed.data.url)) return parsed.data.url
    } catch {
      // No settings yet (or unreadable): the default.
    }
    return defaultRegistryUrl()
  }

  /** Sets the registry URL (empty = the default). Refuses anything but https (or http on this machine). */
  async setUrl(url: string): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
    const trimmed = url.trim()
    if (trimmed && !safeDownloadUrl(trimmed)) return { ok: false, message: 'Use an https address (http only for this machine)' }
    await writeFileAtomic(join(this.dir, 'settings.json'), JSON.stringify(trimmed ? { url: trimmed } : {}, null, 2) + '\n')
    this.memory = undefined
    return { ok: true, url: trimmed || defaultRegistryUrl() }
  }

  /** The registry: a recent copy, else the network, else the last copy on disk (`source: 'cache'`). */
  load(options: { refresh?: boolean } = {}): Promise<RegistryLoad> {
    this.inflight ??= this.loadNow(options.refresh === true).finally(() => (this.inflight = undefined))
    return this.inflight
  }

  private async loadNow(refresh: boolean): Promise<RegistryLoad> {
    const url = await this.getUrl()
    const fresh = this.memory && this.memory.url === url && this.memory.source === 'network' && this.now() - this.memory.fetchedAt < (this.options.freshMs ?? 10 * 60_000)
    if (fresh && !refresh) return { ok: true, value: this.memory! }
    let reason: string
    try {
      const { body } = await downloadToBuffer(url, { maxBytes: REGISTRY_MAX_BYTES, idleTimeoutMs: 15_000, accept: 'application/json' })
      const text = body.toString('utf8')
      const parsed = parseRegistry(text, url)
      if (parsed.ok) {
        const fetchedAt = this.now()
        await fs.mkdir(this.dir, { recursive: true })
        await writeFileAtomic(join(this.dir, 'registry.json'), text)
        await writeFileAtomic(join(this.dir, 'meta.json'), JSON.stringify({ url, fetchedAt }) + '\n')
        this.memory = { ...parsed.value, url, fetchedAt, source: 'network' }
        return { ok: true, value: this.memory }
      }
      reason = parsed.message
    } catch (error) {
      reason = error instanceof DownloadError ? error.message : `Could not fetch the registry: ${(error as Error).message}`
    }
    const cached = await this.readCache(url)
    if (cached) return { ok: true, value: { ...cached, source: 'cache', offlineReason: reason } }
    return { ok: false, message: reason }
  }

  /** The copy on disk, if it came from `url` and still parses. */
  private async readCache(url: string): Promise<Omit<RegistrySnapshot, 'source'> | null> {
    try {
      const meta = metaSchema.safeParse(JSON.parse(await readSettingsText(join(this.dir, 'meta.json'))))
      if (!meta.success || meta.data.url !== url) return null
      const parsed = parseRegistry(await readSettingsText(join(this.dir, 'registry.json')), url)
      return parsed.ok ? { ...parsed.value, url, fetchedAt: meta.data.fetchedAt } : null
    } catch {
      return null
    }
  }
}

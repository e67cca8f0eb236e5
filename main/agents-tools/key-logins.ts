/**
 * Which login of an agent reads its key from the environment, remembered across runs (`<home>/login-keys.json`).
 *
 * An agent-driven login that takes a key in the request may pass over that key for one in its environment
 * (codex-acp 2.6 reads `_meta["api-key"].apiKey`, not the string, and refuses the first key naming
 * `CODEX_API_KEY`/`OPENAI_API_KEY`). Bosun then stores the key under those names and restarts the agent with it.
 * A later key for the same login must go there too, in this run and in the next: sent in the request, the agent
 * keeps the stored one. Only names are kept here, never a key; the keychain says whether a key is stored.
 */
import { z } from 'zod'
import { MapFile } from '../base/map-file'
import { MAX_KEY_NAMES } from '../../common/agent-keys'
import { ENV_NAME_PATTERN } from '../config/agent-definitions'

export interface KeyLogin {
  methodId: string
  names: string[]
}

/** One entry per defined agent; far past any real count, it only bounds a damaged or hostile file. */
const MAX_ENTRIES = 500
const MAX_METHOD_ID_CHARS = 256

const entrySchema = z.object({
  methodId: z.string().min(1).max(MAX_METHOD_ID_CHARS),
  names: z.array(z.string().regex(ENV_NAME_PATTERN)).min(1).max(MAX_KEY_NAMES),
})

export class KeyLoginMemory {
  private entries: Map<string, KeyLogin> | undefined
  private loading: Promise<Map<string, KeyLogin>> | undefined
  private readonly file: MapFile | undefined

  /** `file`: where it is kept; undefined keeps it for this run only. */
  constructor(file: string | undefined) {
    this.file = file === undefined ? undefined : new MapFile(file, 'agents')
  }

  async get(agentId: string): Promise<KeyLogin | undefined> {
    return (await this.load()).get(agentId)
  }

  /**
   * Remembers `names` for the agent's login `methodId`, and forgets the agents `isDefined` no longer knows (removed
   * definitions). Written before this resolves; a failed write is thrown.
   */
  async remember(agentId: string, methodId: string, names: readonly string[], isDefined: (agentId: string) => boolean): Promise<void> {
    const entry = entrySchema.safeParse({ methodId, names: names.slice(0, MAX_KEY_NAMES) })
    if (!entry.success) return
    const entries = await this.load()
    const known = entries.get(agentId)
    if (known?.methodId === entry.data.methodId && known.names.join('\n') === entry.data.names.join('\n')) return
    for (const id of [...entries.keys()]) if (id === agentId || !isDefined(id)) entries.delete(id)
    entries.set(agentId, entry.data)
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
    return this.save(entries)
  }

  private load(): Promise<Map<string, KeyLogin>> {
    if (this.entries) return Promise.resolve(this.entries)
    this.loading ??= this.read().then((entries) => (this.entries = entries))
    return this.loading
  }

  private async read(): Promise<Map<string, KeyLogin>> {
    const entries = new Map<string, KeyLogin>()
    // Nothing remembered yet (or unreadable: then a key goes in the request first, as for a first login).
    const agents = (await this.file?.read()) ?? {}
    for (const [agentId, value] of Object.entries(agents).slice(-MAX_ENTRIES)) {
      const entry = entrySchema.safeParse(value)
      if (entry.success) entries.set(agentId, entry.data)
    }
    return entries
  }

  private save(entries: Map<string, KeyLogin>): Promise<void> {
    return this.file?.write(entries) ?? Promise.resolve()
  }
}

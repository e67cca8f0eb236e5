/**
 * Agent definitions: the `agents.json` settings file in Bosun's home folder.
 *
 * ```json
 * { "version": 1, "agents": [ { "id": "claude-1a2b3c", "name": "Claude", "command": "npx",
 *     "args": ["-y", "@agentclientprotocol/claude-agent-acp"], "env": {}, "secretEnv": ["ANTHROPIC_API_KEY"] } ] }
 * ```
 *
 * Secret values never live here: `secretEnv` only names them, the values are in the OS keychain
 * (see `main/secrets/secret-store.ts`). The file is written atomically. A file that cannot be read as
 * this format is copied aside (`agents.json.corrupt-<timestamp>`), reported through {@link LoadReport},
 * and only replaced by a later save once that copy exists.
 */
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { writeFileAtomic } from '../base/atomic-write'
import { Emitter, type Event } from '../base/event'
import { fail, ok, type Result } from '../base/errors'
import type { IDisposable } from '../base/lifecycle'
import { keepAside, readSettingsFile } from '../base/settings-file'
import { watchHomeFile } from '../base/watch-home-file'
import { boundJson, TRUNCATION_MARKER } from '../../common/bounded'
import { boundedRecord } from '../../common/contract/define'
import { MAX_DEFAULT_CONFIG_OPTIONS } from '../../common/contract/agents'

export const AGENTS_FILE = 'agents.json'
export const AGENTS_FILE_VERSION = 1

/** Environment variable names Bosun accepts (POSIX portable names). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/
const envName = z.string().regex(ENV_NAME_PATTERN)

/**
 * One definition as stored. Loose objects: fields a newer Bosun adds are kept through a load/save
 * round trip instead of being dropped.
 */
export const agentDefinitionSchema = z.looseObject({
  id: z.string().min(1).max(128).regex(/^[A-Za-z0-9._-]+$/),
  name: z.string().trim().min(1).max(200),
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(65536)).max(1000),
  env: z.record(envName, z.string().max(65536)),
  secretEnv: z.array(envName).max(100),
  defaultCwd: z.string().min(1).max(4096).optional(),
  /** The protocol version Bosun offers first; the agent's answer decides. */
  protocolVersion: z.union([z.literal(1), z.literal(2)]).optional(),
  defaultMode: z.string().min(1).max(512).optional(),
  /** Bounded like the renderer's save (`MAX_DEFAULT_CONFIG_OPTIONS`); a longer map in the file is cut on load. */
  defaultConfigOptions: boundedRecord(z.string().max(512), z.union([z.string().max(4096), z.boolean()]), MAX_DEFAULT_CONFIG_OPTIONS).optional(),
  presetId: z.string().max(128).optional(),
})

export type AgentDefinition = z.infer<typeof agentDefinitionSchema>

const fileSchema = z.looseObject({
  version: z.literal(AGENTS_FILE_VERSION),
  agents: z.array(z.unknown()),
})

/** What loading found; the UI shows a warning for anything but `ok`/`missing`. */
export type LoadReport =
  | { status: 'ok' }
  | { status: 'missing' }
  /** The file could not be used at all: nothing loaded, the original copied to `backupPath`. */
  | { status: 'corrupt'; message: string; backupPath: string | null }
  /** Some entries were invalid and skipped; the original copied to `backupPath`. */
  | { status: 'partial'; message: string; skipped: number; backupPath: string | null }

export interface AgentDefinitionsChange {
  definitions: readonly AgentDefinition[]
  /** The id that was saved or removed, absent after a (re)load. */
  changedId?: string
  removed?: boolean
}

/** Validation problems by field (`name`, `command`, `env.FOO`, …). */
export type FieldErrors = Record<string, string>

export interface AgentDefinitionStoreOptions {
  /** Bosun's home folder (Electron `userData` or `BOSUN_HOME`). */
  home: string
  /** Removes an agent's keychain secrets when the agent is removed. */
  deleteSecrets?: (agentId: string) => Promise<unknown>
  /** Injected for tests (a crash mid-write is simulated by a failing rename). */
  writeFile?: (path: string, data: string) => Promise<void>
  now?: () => Date
  /** Reload when another program (a hand edit, another Bosun) changes the file. Default false; the app turns it on. */
  watch?: boolean
  /** Told once when the folder cannot be watched (no inotify instance left, a file system without events). */
  onWatchFailed?: (error: unknown) => void
  /** How often the file is read when its folder cannot be watched (default 2 s). */
  pollMs?: number
}

/**
 * The problems a load report names one by one: the warning is a line in the Agents screen and the log, and a file of
 * 10,000 bad entries made it 270 KB (100,000 of them, 2.7 MB, before the file's lists were cut).
 */
const NAMED_PROBLEMS = 5
const MAX_PROBLEM_CHARS = 300
const firstFew = (problems: readonly string[]): string =>
  problems
    .slice(0, NAMED_PROBLEMS)
    .map((p) => (p.length > MAX_PROBLEM_CHARS ? `${p.slice(0, MAX_PROBLEM_CHARS)}…` : p))
    .join('; ') + (problems.length > NAMED_PROBLEMS ? `; and ${count(problems.length - NAMED_PROBLEMS)} more (the whole file is in the backup)` : '')

/**
 * One invalid entry in words a person can act on: which entry (its place, and its id when it has one), then the one
 * problem it has, or the fields that are wrong when it has several (zod's whole report repeated a sentence per field,
 * four lines for an entry with only an id).
 */
function entryProblem(index: number, raw: unknown, error: z.ZodError): string {
  const id = typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : ''
  const which = `entry ${index + 1}${id ? ` (${clip(id, 40)})` : ''}`
  const fieldOf = (issue: z.core.$ZodIssue) => (issue.path.length > 0 ? clip(issue.path.map(String).join('.'), 40) : 'the entry')
  if (error.issues.length === 1) return `${which}: ${fieldOf(error.issues[0]!)}: ${error.issues[0]!.message}`
  const fields = [...new Set(error.issues.map((issue) => fieldOf(issue).split('.')[0]!))]
  const named = fields.length > 6 ? `${fields.slice(0, 6).join(', ')} and ${fields.length - 6} more` : fields.join(', ')
  return `${which}: ${named} missing or invalid`
}

const count = (n: number): string => n.toLocaleString('en-US')

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/** Unknown fields are kept, but cut to this depth (a deeper one made every later save fail). */
const MAX_FILE_DEPTH = 20

export class AgentDefinitionStore implements IDisposable {
  readonly path: string
  private definitions: AgentDefinition[] = []
  /** Top-level fields of the file we do not know (from a newer Bosun), written back unchanged. */
  private extraFileFields: Record<string, unknown> = {}
  private report: LoadReport = { status: 'missing' }
  /** Set while the file on disk is one we could not read; a save must first make sure a backup exists. */
  private unreadable: { backupPath: string | null } | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private readonly changeEmitter = new Emitter<AgentDefinitionsChange>()
  readonly onDidChange: Event<AgentDefinitionsChange> = this.changeEmitter.event
  private readonly writeFile: (path: string, data: string) => Promise<void>
  private readonly now: () => Date
  /** The file's text as we last read or wrote it: anything else on disk is someone else's edit. */
  private known: string | null = null
  private watching: IDisposable | undefined

  constructor(private readonly options: AgentDefinitionStoreOptions) {
    this.path = join(options.home, AGENTS_FILE)
    this.writeFile = options.writeFile ?? ((path, data) => writeFileAtomic(path, data))
    this.now = options.now ?? (() => new Date())
  }

  /** Reads the file. Never throws for a bad file: the problem is in the returned report. */
  load(): Promise<LoadReport> {
    return this.serialize(async () => {
      this.report = await this.readFile()
      this.changeEmitter.fire({ definitions: this.list() })
      if (this.options.watch) this.startWatching()
      return this.report
    })
  }

  /**
   * Watches the folder and reloads after someone else's edit (read every `pollMs` where it cannot be watched). Saves
   * check again anyway: nothing unread is ever overwritten; `refresh` (the Agents screen's list) shows an edit at once.
   */
  private startWatching(): void {
    this.watching ??= watchHomeFile({
      folder: this.options.home,
      fileName: AGENTS_FILE,
      reload: () => void this.reloadIfChanged(),
      onBlind: (error) => this.options.onWatchFailed?.(error),
      ...(this.options.pollMs !== undefined ? { pollMs: this.options.pollMs } : {}),
    })
  }

  /**
   * Reads the file again if someone else changed it (and tells the listeners). The Agents screen asks this when it
   * lists: a watch event can be missed (none left, a busy machine), a person who just edited the file by hand expects
   * to see their edit there.
   */
  refresh(): Promise<void> {
    return this.reloadIfChanged()
  }

  /** Someone else changed the file: load their version (our own writes leave `known` equal to the disk). */
  private reloadIfChanged(): Promise<void> {
    return this.serialize(async () => {
      if (!(await this.changedOnDisk())) return
      this.report = await this.readFile()
      this.changeEmitter.fire({ definitions: this.list() })
    })
  }

  private async changedOnDisk(): Promise<boolean> {
    const read = await readSettingsFile(this.path)
    return (read.kind === 'text' ? read.text : null) !== this.known
  }

  /** Before a save: if the file changed since we read it, take that version first and apply the change on top. */
  private async refreshBeforeWrite(): Promise<void> {
    if (!(await this.changedOnDisk())) return
    this.report = await this.readFile()
  }

  get lastLoadReport(): LoadReport {
    return this.report
  }

  list(): AgentDefinition[] {
    return this.definitions.map(cloneDefinition)
  }

  get(id: string): AgentDefinition | undefined {
    const found = this.definitions.find((d) => d.id === id)
    return found ? cloneDefinition(found) : undefined
  }

  /**
   * Creates (unknown id) or replaces (known id) a definition. Unknown fields of the stored version are
   * kept unless the new one sets them. Invalid input is a value (`invalid-argument` with `data: FieldErrors`).
   */
  save(input: AgentDefinition): Promise<Result<AgentDefinition>> {
    return this.serialize(async () => {
      const parsed = agentDefinitionSchema.safeParse(input)
      if (!parsed.success) return fail({ kind: 'invalid-argument', message: 'The agent definition is invalid', data: zodFieldErrors(parsed.error) })
      const def = parsed.data
      await this.refreshBeforeWrite()
      const nameTaken = this.definitions.some((d) => d.id !== def.id && sameName(d.name, def.name))
      if (nameTaken) return fail({ kind: 'invalid-argument', message: 'Another agent has this name', data: { name: 'Another agent has this name' } })
      const index = this.definitions.findIndex((d) => d.id === def.id)
      const next = [...this.definitions]
      if (index >= 0) next[index] = mergeUnknown(this.definitions[index]!, def)
      else next.push(def)
      const written = await this.persist(next)
      if (!written.ok) return written
      this.definitions = next
      this.changeEmitter.fire({ definitions: this.list(), changedId: def.id })
      return ok(cloneDefinition(index >= 0 ? next[index]! : def))
    })
  }

  /** Removes a definition and (through `deleteSecrets`) its keychain secrets. */
  remove(id: string): Promise<Result<void>> {
    return this.serialize(async () => {
      await this.refreshBeforeWrite()
      if (!this.definitions.some((d) => d.id === id)) return fail({ kind: 'not-found', message: `No agent with id ${id}` })
      const next = this.definitions.filter((d) => d.id !== id)
      const written = await this.persist(next)
      if (!written.ok) return written
      this.definitions = next
      // The definition is gone either way; a keychain hiccup must not bring it back.
      await this.options.deleteSecrets?.(id)?.catch(() => undefined)
      this.changeEmitter.fire({ definitions: this.list(), changedId: id, removed: true })
      return ok(undefined)
    })
  }

  /** A fresh id derived from a name: readable in the file, unique, stable across renames. */
  newId(name: string): string {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'agent'
    for (;;) {
      const id = `${slug}-${randomBytes(3).toString('hex')}`
      if (!this.definitions.some((d) => d.id === id)) return id
    }
  }

  dispose(): void {
    this.watching?.dispose()
    this.changeEmitter.dispose()
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => undefined)
    return run
  }

  private async persist(next: AgentDefinition[]): Promise<Result<void>> {
    if (this.unreadable && !this.unreadable.backupPath) {
      // Loading could not copy the bad file aside; try again, and refuse to overwrite it until we have.
      const backup = await this.backup()
      if (!backup) return fail({ kind: 'io-error', message: `Could not back up the unreadable ${AGENTS_FILE}; not overwriting it` })
      this.unreadable.backupPath = backup
    }
    const body = { ...this.extraFileFields, version: AGENTS_FILE_VERSION, agents: next }
    const text = JSON.stringify(body, null, 2) + '\n'
    try {
      await this.writeFile(this.path, text)
      this.known = text
    } catch (error) {
      return fail({ kind: 'io-error', message: `Could not write ${this.path}: ${(error as Error).message}` })
    }
    this.unreadable = null
    return ok(undefined)
  }

  private async readFile(): Promise<LoadReport> {
    this.definitions = []
    this.extraFileFields = {}
    this.unreadable = null
    // Not a plain read: a FIFO or a device in its place is never waited on or read without end.
    const read = await readSettingsFile(this.path)
    if (read.kind !== 'text') {
      this.known = null
      if (read.kind === 'missing') return { status: 'missing' }
      // Unreadable for another reason (permissions, not a file, too large): treat as corrupt but we may not be able to copy it either.
      return this.markCorrupt(`Could not read ${AGENTS_FILE}: ${read.message}`)
    }
    const text = read.text
    this.known = text
    let json: unknown
    let cut = false
    try {
      // Unknown fields are kept through a save, so they are bounded like anything else read from outside; a file
      // they cut is backed up (below), since the next save would write what was kept.
      const parsed = JSON.parse(text) as unknown
      json = boundJson(parsed, { maxDepth: MAX_FILE_DEPTH })
      cut = json !== parsed
    } catch (error) {
      return this.markCorrupt(`${AGENTS_FILE} is not valid JSON: ${(error as Error).message}`)
    }
    const file = fileSchema.safeParse(json)
    if (!file.success) {
      const version = (json as { version?: unknown } | null)?.version
      const message =
        typeof version === 'number' && version !== AGENTS_FILE_VERSION
          ? `${AGENTS_FILE} has version ${version}, which this Bosun does not know`
          : `${AGENTS_FILE} is not an agents file: ${z.prettifyError(file.error)}`
      return this.markCorrupt(message)
    }
    const { version: _version, agents, ...extra } = file.data
    const seen = new Set<string>()
    const problems: string[] = []
    const trimmed: string[] = []
    for (const [i, entry] of agents.entries()) {
      const { value: raw, dropped } = capDefaultConfigOptions(entry)
      const def = agentDefinitionSchema.safeParse(raw)
      if (def.success && dropped > 0) trimmed.push(`${def.data.name}: kept the first ${MAX_DEFAULT_CONFIG_OPTIONS} default config options, dropped ${dropped}`)
      if (!def.success) problems.push(entryProblem(i, raw, def.error))
      else if (seen.has(def.data.id)) problems.push(`entry ${i + 1}: duplicate id ${def.data.id}`)
      else {
        seen.add(def.data.id)
        this.definitions.push(def.data)
      }
    }
    this.extraFileFields = extra
    if (problems.length === 0 && trimmed.length === 0 && !cut) return { status: 'ok' }
    // Dropped entries, trimmed options, or cut parts would be lost on the next save: keep the original beside it.
    const backupPath = await this.backup()
    this.unreadable = { backupPath }
    const said = [
      ...(problems.length > 0 ? [`Skipped ${count(problems.length)} invalid ${problems.length === 1 ? 'agent' : 'agents'}: ${firstFew(problems)}`] : []),
      ...(trimmed.length > 0 ? [`More default config options than Bosun keeps (${firstFew(trimmed)}); the whole file is in the backup`] : []),
      ...(cut ? [`Parts of it were larger or deeper than Bosun keeps; they are cut (marked "${TRUNCATION_MARKER}") and the whole file is in the backup`] : []),
    ]
    return { status: 'partial', skipped: problems.length, backupPath, message: `${said.join('. ')}.` }
  }

  private async markCorrupt(message: string): Promise<LoadReport> {
    const backupPath = await this.backup()
    this.unreadable = { backupPath }
    return { status: 'corrupt', message, backupPath }
  }

  /** Copies the current file to `agents.json.corrupt-<timestamp>`; null when that fails. */
  private backup(): Promise<string | null> {
    return keepAside(this.path, 'corrupt', this.now().toISOString().replace(/[:.]/g, '-'))
  }
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase()
}

/** Keeps fields of the stored definition that the schema does not know (written by a newer Bosun). */
function mergeUnknown(stored: AgentDefinition, next: AgentDefinition): AgentDefinition {
  const known = new Set(Object.keys(agentDefinitionSchema.shape))
  const extra = Object.fromEntries(Object.entries(stored).filter(([key]) => !known.has(key)))
  return { ...extra, ...next }
}

function cloneDefinition(def: AgentDefinition): AgentDefinition {
  return structuredClone(def)
}

/** zod issues as `field → message` (first message per field). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_'
    errors[key] ??= issue.message
  }
  return errors
}

/**
 * A hand-edited definition may hold more default config options than a save accepts; it is kept with the first
 * `MAX_DEFAULT_CONFIG_OPTIONS` (file order) rather than refused, so the agent stays usable and editable, and the
 * caller reports the cut and keeps the original file aside.
 */
function capDefaultConfigOptions(raw: unknown): { value: unknown; dropped: number } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { value: raw, dropped: 0 }
  const options = (raw as { defaultConfigOptions?: unknown }).defaultConfigOptions
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return { value: raw, dropped: 0 }
  const entries = Object.entries(options)
  if (entries.length <= MAX_DEFAULT_CONFIG_OPTIONS) return { value: raw, dropped: 0 }
  return {
    value: { ...raw, defaultConfigOptions: Object.fromEntries(entries.slice(0, MAX_DEFAULT_CONFIG_OPTIONS)) },
    dropped: entries.length - MAX_DEFAULT_CONFIG_OPTIONS,
  }
}

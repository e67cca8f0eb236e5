/**
 * Which agent launches the person has confirmed: per agent id, a hash of exactly what would run (command,
 * arguments, plain environment, the names of its keychain secrets). A definition confirmed once (when it
 * was saved, or the first time it was started) does not ask again until one of those changes.
 *
 * Kept in `<home>/trusted-agents.json`, written atomically. A file that cannot be read trusts nothing (every
 * agent asks once more), which fails closed.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { z } from 'zod'
import { writeFileAtomic } from '../base/atomic-write'
import type { Logger } from '../base/log'
import { boundDetail, quoteExact } from './confirmation'
import { readSettingsFile, ReplaceGuard } from '../base/settings-file'

export const TRUSTED_AGENTS_FILE = 'trusted-agents.json'

/** The part of a definition that decides what runs. */
export interface LaunchIdentity {
  command: string
  args: readonly string[]
  env: Readonly<Record<string, string>>
  secretEnv: readonly string[]
}

/** A stable hash of what runs: the env in name order, the secret names sorted (their values live in the keychain). */
export function launchIdentityHash(identity: LaunchIdentity): string {
  const canonical = JSON.stringify({
    command: identity.command,
    args: [...identity.args],
    env: Object.entries(identity.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    secretEnv: [...new Set(identity.secretEnv)].sort(),
  })
  return createHash('sha256').update(canonical).digest('hex')
}

/** Whether two definitions run the same thing. */
export function sameLaunch(a: LaunchIdentity, b: LaunchIdentity): boolean {
  return launchIdentityHash(a) === launchIdentityHash(b)
}

/** What differs between two definitions: the command, the arguments, how many environment variables, the secrets. */
function launchDiff(a: LaunchIdentity, b: LaunchIdentity) {
  const names = new Set([...Object.keys(a.env), ...Object.keys(b.env)])
  const before = new Set(a.secretEnv)
  const after = new Set(b.secretEnv)
  return {
    command: a.command !== b.command,
    args: JSON.stringify(a.args) !== JSON.stringify(b.args),
    envChanged: [...names].filter((name) => !Object.hasOwn(a.env, name) || !Object.hasOwn(b.env, name) || a.env[name] !== b.env[name]).length,
    secrets: JSON.stringify([...a.secretEnv].sort()) !== JSON.stringify([...b.secretEnv].sort()),
    /** Secret names added or removed. */
    keysListed: [...after].filter((name) => !before.has(name)).length + [...before].filter((name) => !after.has(name)).length,
  }
}

/** Which of command / arguments / environment / secrets differ (for the dialog's "changed:" line). */
export function changedParts(previous: LaunchIdentity, next: LaunchIdentity): string[] {
  const diff = launchDiff(previous, next)
  const parts: string[] = []
  if (diff.command) parts.push('command')
  if (diff.args) parts.push('arguments')
  if (diff.envChanged > 0) parts.push('environment')
  if (diff.secrets) parts.push('keychain secrets')
  return parts
}

/**
 * What a running agent has not taken up yet, in words for its Agents page ("the new arguments", "2 changed environment
 * variables"): what differs between the definition it started with and the one saved now; `keysReplaced` when a key's
 * value was set or removed since (the names may be the same). Empty when nothing that runs differs.
 */
export function describeLaunchChanges(started: LaunchIdentity, saved: LaunchIdentity, keysReplaced = false): string[] {
  const diff = launchDiff(started, saved)
  const changes: string[] = []
  if (diff.command) changes.push('the new command')
  if (diff.args) changes.push('the new arguments')
  if (diff.envChanged > 0) changes.push(diff.envChanged === 1 ? '1 changed environment variable' : `${diff.envChanged} changed environment variables`)
  if (diff.keysListed > 0) changes.push(diff.keysListed === 1 ? '1 added or removed key' : `${diff.keysListed} added or removed keys`)
  else if (keysReplaced) changes.push('the key values you changed')
  return changes
}

/**
 * Exactly what will run, for a confirmation dialog: every value quoted with {@link quoteExact}, one
 * argument per line, numbered, so nothing can hide in spacing, quoting or invisible characters.
 */
export function describeLaunch(identity: LaunchIdentity & { cwd?: string | undefined }): string {
  const lines = [`Program: ${quoteExact(identity.command)}`]
  if (identity.args.length === 0) lines.push('Arguments: none')
  else {
    lines.push(`Arguments (${identity.args.length}):`)
    identity.args.forEach((arg, i) => lines.push(`  ${i + 1}. ${quoteExact(arg)}`))
  }
  const env = Object.entries(identity.env)
  if (env.length === 0) lines.push('Environment added: none')
  else {
    lines.push(`Environment added (${env.length}):`)
    for (const [name, value] of env) lines.push(`  ${quoteExact(name)} = ${quoteExact(value)}`)
  }
  if (identity.secretEnv.length > 0) lines.push(`Secrets from the keychain (values not shown): ${identity.secretEnv.map(quoteExact).join(', ')}`)
  if (identity.cwd !== undefined) lines.push(`Working folder: ${quoteExact(identity.cwd)}`)
  return boundDetail(lines.join('\n'))
}

const fileSchema = z.object({
  version: z.literal(1),
  agents: z.record(z.string().max(128), z.string().regex(/^[0-9a-f]{64}$/)),
})

/** At most this many agents are remembered (the definitions file holds far fewer; a bound all the same). */
const MAX_TRUSTED = 1000

export class LaunchTrustStore {
  private readonly path: string
  private trusted = new Map<string, string>()
  /** What the file's next save must do first. */
  private readonly guard: ReplaceGuard
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    home: string,
    private readonly log: Logger,
  ) {
    this.path = join(home, TRUSTED_AGENTS_FILE)
    this.guard = new ReplaceGuard(this.path)
  }

  async load(): Promise<void> {
    const read = await readSettingsFile(this.path)
    if (read.kind === 'missing') return
    if (read.kind === 'unreadable') {
      this.guard.unreadableBecause(read.message)
      this.log.warn(`${read.message}; every agent asks again, and Bosun does not replace it`)
      return
    }
    try {
      const value = JSON.parse(read.text) as unknown
      const parsed = fileSchema.safeParse(value)
      if (parsed.success) {
        const entries = Object.entries(parsed.data.agents)
        this.trusted = new Map(entries.slice(0, MAX_TRUSTED))
        if (entries.length > MAX_TRUSTED || !isDeepStrictEqual(parsed.data, value)) this.guard.partlyRead()
        return
      }
      // One entry this Bosun cannot read does not make every agent ask again: each valid one is kept (and the file
      // is copied aside before a save replaces it).
      this.guard.partlyRead()
      const agents = (value as { agents?: unknown } | null)?.agents
      const entries = typeof agents === 'object' && agents !== null ? Object.entries(agents) : []
      const valid = entries.filter(([id, hash]) => fileSchema.shape.agents.safeParse({ [id]: hash }).success)
      this.trusted = new Map((valid as [string, string][]).slice(0, MAX_TRUSTED))
      this.log.warn(`${TRUSTED_AGENTS_FILE} is not valid as a whole; kept ${valid.length} of its ${entries.length} confirmations, the other agents ask again`)
    } catch (error) {
      this.guard.partlyRead()
      this.log.warn(`${TRUSTED_AGENTS_FILE} is not valid; every agent asks again`, error)
    }
  }

  isTrusted(agentId: string, identity: LaunchIdentity): boolean {
    return this.trusted.get(agentId) === launchIdentityHash(identity)
  }

  /** Remembers that the person confirmed `identity` for `agentId` (replacing what was confirmed before). */
  trust(agentId: string, identity: LaunchIdentity): Promise<void> {
    this.trusted.delete(agentId)
    this.trusted.set(agentId, launchIdentityHash(identity))
    while (this.trusted.size > MAX_TRUSTED) this.trusted.delete(this.trusted.keys().next().value!)
    return this.persist()
  }

  /** Forgets agents that no longer exist (a new agent reusing an id must be confirmed again). */
  retain(knownIds: ReadonlySet<string>): Promise<void> {
    let changed = false
    for (const id of [...this.trusted.keys()]) {
      if (!knownIds.has(id)) {
        this.trusted.delete(id)
        changed = true
      }
    }
    return changed ? this.persist() : Promise.resolve()
  }

  /** Resolves once every write issued so far is done (tests). */
  flush(): Promise<void> {
    return this.queue.then(() => undefined)
  }

  private persist(): Promise<void> {
    const body = JSON.stringify({ version: 1, agents: Object.fromEntries(this.trusted) }, null, 2) + '\n'
    const run = this.queue.then(async () => {
      const allowed = await this.guard.beforeReplace()
      if (!allowed.ok) throw new Error(allowed.message)
      if (allowed.aside) this.log.warn(`${TRUSTED_AGENTS_FILE} held what this Bosun cannot use; kept a copy at ${allowed.aside}`)
      await writeFileAtomic(this.path, body)
    })
    this.queue = run.catch((error: unknown) => this.log.error(`cannot write ${TRUSTED_AGENTS_FILE}`, error))
    return this.queue.then(() => undefined)
  }
}

/**
 * Persists remembered decisions as JSON under the Bosun home folder. Loading validates every rule; a
 * file that does not parse (or holds invalid rules) is kept aside as `…corrupt-<time>` so nothing the
 * person decided is silently destroyed, and Bosun starts from the rules it could read.
 *
 * Rules of the older format are migrated when loaded (rules.ts `migrateRule`): kept with their exact
 * meaning, or retired (listed with the reason, never applied) where they covered more than was approved;
 * the original file is kept aside as `…before-migration-<time>`. Session-scoped rules live in memory only.
 * A save never overwrites what Bosun did not read: when the file changed on disk since (a hand edit), the
 * change is applied on top of that version.
 */
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../base/atomic-write'
import { Emitter, type Event } from '../base/event'
import type { IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import { keepAside, readSettingsFile } from '../base/settings-file'
import { BLIND_POLL_MS, watchHomeFile } from '../base/watch-home-file'
import { permissionRuleSchema, type PermissionRule } from '../../common/contract/permissions'
import { migrateRule } from './rules'

export const RULES_FILE_NAME = 'permission-rules.json'
/** Session-scoped rules kept at most (oldest dropped first): they are never written to disk. */
export const MAX_SESSION_RULES = 256

const fileSchema = z.object({ version: z.literal(1), rules: z.array(z.unknown()) })

export class RuleStore implements IDisposable {
  private rules: PermissionRule[] = []
  private writing: Promise<void> = Promise.resolve()
  /** The file's text as we last read or wrote it: anything else on disk is someone else's edit. */
  private known: string | null = null
  private readonly changeEmitter = new Emitter<readonly PermissionRule[]>()
  /** Fires after every change, with the full list. */
  readonly onDidChange: Event<readonly PermissionRule[]> = this.changeEmitter.event

  readonly path: string

  constructor(home: string, private readonly log: Logger = createLogger('permissions rules')) {
    this.path = join(home, RULES_FILE_NAME)
  }

  /** Reads the file (a missing file is an empty list). Never throws for bad content. */
  async load(): Promise<readonly PermissionRule[]> {
    const read = await readSettingsFile(this.path)
    if (read.kind !== 'text') {
      // Unreadable is not empty: no save replaces it until it can be read (see persist).
      if (read.kind === 'unreadable') this.log.warn(`${read.message}; Bosun starts without its rules and will not replace it`)
      this.rules = []
      return this.rules
    }
    const text = read.text
    this.known = text
    const { valid, dropped, migrated } = parseRules(text)
    this.rules = valid
    // Rewrite only once the original is safely aside; otherwise leave the file as it is.
    if (dropped || migrated) {
      // A failed rewrite is logged; the rules read stay in force, and the file as it was.
      if (await this.setAside(dropped ? 'corrupt' : 'before-migration')) await this.persist().catch(() => undefined)
      if (migrated) this.log.info(`migrated ${valid.length} remembered decision(s); retired ${valid.filter((r) => r.retired).length}`)
    }
    return this.rules
  }

  list(): readonly PermissionRule[] {
    return this.rules
  }

  async add(rule: PermissionRule): Promise<void> {
    let next = [...this.rules.filter((r) => r.ruleId !== rule.ruleId), rule]
    const sessionRules = next.filter((r) => r.sessionId)
    if (sessionRules.length > MAX_SESSION_RULES) {
      const drop = new Set(sessionRules.slice(0, sessionRules.length - MAX_SESSION_RULES))
      next = next.filter((r) => !drop.has(r))
    }
    this.rules = next
    this.changeEmitter.fire(this.rules)
    if (!rule.sessionId) await this.persist((rules) => [...rules.filter((r) => r.ruleId !== rule.ruleId), rule])
  }

  /** Removes a rule; answers whether it existed. */
  async revoke(ruleId: string): Promise<boolean> {
    const before = this.rules.length
    const change = (rules: PermissionRule[]) => rules.filter((r) => r.ruleId !== ruleId)
    this.rules = change(this.rules)
    if (this.rules.length === before) return false
    this.changeEmitter.fire(this.rules)
    await this.persist(change)
    return true
  }

  /** Drops the session-scoped rules of a session that closed (they were never on disk). */
  forgetSession(sessionId: string): void {
    const next = this.rules.filter((r) => r.sessionId !== sessionId)
    if (next.length === this.rules.length) return
    this.rules = next
    this.changeEmitter.fire(this.rules)
  }

  /**
   * Watches Bosun's home (an atomic write replaces the file, so watching the file itself would go blind) and
   * takes someone else's edit of the rules file as soon as it lands; session-scoped rules stay. A hand edit that
   * does not validate is left for the next load, which keeps it aside. Saves merge anyway (see persist), and the
   * Settings screen's list re-reads a changed file (the service's listRules). A watch that cannot start or stops (no
   * inotify instance left, a file system without events) is logged once, and the file is then read every
   * `pollMs` instead: a rule the person removed by hand must stop answering requests soon, not at the next restart.
   */
  watch(pollMs = BLIND_POLL_MS): IDisposable {
    return watchHomeFile({
      folder: dirname(this.path),
      fileName: RULES_FILE_NAME,
      reload: () => void this.reloadIfChanged(),
      onBlind: (error) => {
        const reason = error instanceof Error ? error.message : String(error)
        this.log.warn(`cannot watch ${dirname(this.path)} for edits of ${RULES_FILE_NAME} (${reason}); the file is read every ${pollMs / 1000} s instead`)
      },
      pollMs,
    })
  }

  /** Someone else changed the file: take their rules (our own writes leave `known` equal to the disk). */
  reloadIfChanged(): Promise<void> {
    this.writing = this.writing
      .then(async () => {
        const read = await readSettingsFile(this.path)
        const disk = read.kind === 'text' ? read.text : null
        if (disk === null || disk === this.known) return
        const theirs = parseRules(disk)
        if (theirs.dropped) return
        this.known = disk
        this.rules = [...theirs.valid, ...this.rules.filter((r) => r.sessionId)]
        this.log.info('the rules file was edited outside Bosun; reloaded it')
        this.changeEmitter.fire(this.rules)
      })
      .catch((error) => this.log.error('cannot reload the rules file', error))
    return this.writing
  }

  /** Resolves when every write issued so far has finished. */
  flush(): Promise<void> {
    return this.writing
  }

  dispose(): void {
    this.changeEmitter.dispose()
  }

  /**
   * Writes are chained so the file always ends with the latest list. Never overwrites what was not read:
   * when the file changed since we read it (a hand edit, another Bosun), that version is taken and `change`
   * applied to it instead; an edit that does not validate is kept aside first; a file that cannot be read at all
   * is left as it is (the write is refused). A failed write rejects the returned promise, and is logged.
   * Session-scoped rules stay in memory either way.
   */
  private persist(change?: (rules: PermissionRule[]) => PermissionRule[]): Promise<void> {
    const run = this.writing
      .then(async () => {
        const read = await readSettingsFile(this.path)
        if (read.kind === 'unreadable') throw new Error(`${read.message}; not replacing it`)
        const disk = read.kind === 'text' ? read.text : null
        if (disk !== null && disk !== this.known) {
          const theirs = parseRules(disk)
          if (theirs.dropped) {
            // Someone's edit Bosun cannot use: it is kept, as a copy, before Bosun's list replaces it.
            if (!(await this.setAside('corrupt'))) throw new Error('the rules file changed on disk and does not validate, and no copy of it could be kept; not replacing it')
          } else if (change) {
            this.rules = [...change(theirs.valid), ...this.rules.filter((r) => r.sessionId)]
            this.log.info('the rules file changed on disk; merged this change into it')
            this.changeEmitter.fire(this.rules)
          }
        }
        const snapshot = JSON.stringify({ version: 1, rules: this.rules.filter((r) => !r.sessionId) }, null, 2) + '\n'
        await writeFileAtomic(this.path, snapshot)
        this.known = snapshot
      })
    // The chain goes on after a failure (logged); the caller learns of it (the person is told the rule was not kept).
    this.writing = run.catch((error) => this.log.error('cannot write rules file', error))
    return run
  }

  private async setAside(why: 'corrupt' | 'before-migration'): Promise<boolean> {
    const aside = await keepAside(this.path, why)
    if (aside) this.log.warn(`rules file was ${why === 'corrupt' ? 'invalid' : 'of an older format'}; kept a copy at ${aside}`)
    else this.log.error('cannot keep the invalid rules file aside')
    return aside !== null
  }
}

/**
 * The usable rules of a file's text, migrated to the current format. `dropped` when anything in it could not
 * be used (invalid, duplicated, or session-scoped: those are never written by Bosun, so their session is over).
 */
function parseRules(text: string): { valid: PermissionRule[]; dropped: boolean; migrated: boolean } {
  let parsed: z.infer<typeof fileSchema> | null = null
  try {
    const result = fileSchema.safeParse(JSON.parse(text))
    if (result.success) parsed = result.data
  } catch {
    parsed = null
  }
  const valid: PermissionRule[] = []
  let dropped = parsed === null
  let migrated = false
  for (const raw of parsed?.rules ?? []) {
    const rule = permissionRuleSchema.safeParse(raw)
    if (rule.success && !valid.some((r) => r.ruleId === rule.data.ruleId) && !rule.data.sessionId) {
      const current = migrateRule(rule.data)
      if (current.format !== rule.data.format) migrated = true
      valid.push(current)
    } else dropped = true
  }
  return { valid, dropped, migrated }
}

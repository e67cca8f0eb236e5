/**
 * Persists remembered decisions as JSON under the Bosun home folder. Loading validates every rule; a
 * file that does not parse (or holds invalid rules) is kept aside as `…corrupt-<time>` so nothing the
 * person decided is silently destroyed, and Bosun starts from the rules it could read.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../base/atomic-write'
import { Emitter, type Event } from '../base/event'
import type { IDisposable } from '../base/lifecycle'
import { createLogger, type Logger } from '../base/log'
import { permissionRuleSchema, type PermissionRule } from '../../common/contract/permissions'

export const RULES_FILE_NAME = 'permission-rules.json'

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
    let text: string
    try {
      text = await fs.readFile(this.path, 'utf8')
      this.known = text
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn('cannot read rules file', error)
      this.rules = []
      return this.rules
    }
    const { valid, dropped } = parseRules(text)
    this.rules = valid
    // Rewrite only once the original is safely aside; otherwise leave the file as it is.
    if (dropped && (await this.setAside())) await this.persist()
    return this.rules
  }

  list(): readonly PermissionRule[] {
    return this.rules
  }

  async add(rule: PermissionRule): Promise<void> {
    const change = (rules: PermissionRule[]) => [...rules.filter((r) => r.ruleId !== rule.ruleId), rule]
    this.rules = change(this.rules)
    this.changeEmitter.fire(this.rules)
    await this.persist(change)
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

  /** Resolves when every write issued so far has finished. */
  flush(): Promise<void> {
    return this.writing
  }

  dispose(): void {
    this.changeEmitter.dispose()
  }

  /**
   * Writes are chained so the file always ends with the latest list. Never overwrites what was not read:
   * when the file changed since we read it (a hand edit, another Bosun), that version is taken and
   * `change` applied to it instead.
   */
  private persist(change?: (rules: PermissionRule[]) => PermissionRule[]): Promise<void> {
    this.writing = this.writing
      .then(async () => {
        if (change) {
          const disk = await fs.readFile(this.path, 'utf8').catch(() => null)
          if (disk !== null && disk !== this.known) {
            const theirs = parseRules(disk)
            if (!theirs.dropped) {
              this.rules = change(theirs.valid)
              this.log.info('the rules file changed on disk; merged this change into it')
              this.changeEmitter.fire(this.rules)
            }
          }
        }
        const snapshot = JSON.stringify({ version: 1, rules: this.rules }, null, 2) + '\n'
        await writeFileAtomic(this.path, snapshot)
        this.known = snapshot
      })
      .catch((error) => this.log.error('cannot write rules file', error))
    return this.writing
  }

  private async setAside(): Promise<boolean> {
    const aside = `${this.path}.corrupt-${Date.now()}`
    try {
      await fs.copyFile(this.path, aside)
      this.log.warn(`rules file was invalid; kept a copy at ${aside}`)
      return true
    } catch (error) {
      this.log.error('cannot keep the invalid rules file aside', error)
      return false
    }
  }
}

/** The valid rules of a file's text; `dropped` when anything in it could not be used. */
function parseRules(text: string): { valid: PermissionRule[]; dropped: boolean } {
  let parsed: z.infer<typeof fileSchema> | null = null
  try {
    const result = fileSchema.safeParse(JSON.parse(text))
    if (result.success) parsed = result.data
  } catch {
    parsed = null
  }
  const valid: PermissionRule[] = []
  let dropped = parsed === null
  for (const raw of parsed?.rules ?? []) {
    const rule = permissionRuleSchema.safeParse(raw)
    if (rule.success && !valid.some((r) => r.ruleId === rule.data.ruleId)) valid.push(rule.data)
    else dropped = true
  }
  return { valid, dropped }
}

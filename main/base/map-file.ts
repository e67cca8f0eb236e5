/**
 * A small file in Bosun's home that holds one map, `{ "version": 1, "<field>": { key: value, … } }` (the ACP
 * version each command settled on, the logins that read their key from the environment): read once without
 * trusting what is at its path, written whole and atomically, one write after another in the order asked.
 */
import { z } from 'zod'
import { writeFileAtomic } from './atomic-write'
import { readSettingsFile, ReplaceGuard } from './settings-file'

const envelopeSchema = z.looseObject({ version: z.literal(1) })
const mapSchema = z.record(z.string(), z.unknown())

export class MapFile {
  private writing: Promise<unknown> = Promise.resolve()
  /**
   * What {@link read} found decides what a write may replace: a file it could not read (a FIFO, a folder, too large) is
   * never replaced; one that is not JSON or not of this shape (a hand edit gone wrong, a newer Bosun's) is copied aside
   * before the first write. Both were overwritten with what this run knew.
   */
  private readonly guard: ReplaceGuard

  constructor(
    private readonly file: string,
    private readonly field: string,
  ) {
    this.guard = new ReplaceGuard(file)
  }

  /** The map as the file has it, in its order; undefined when there is none, it cannot be read, or it is not of this shape. */
  async read(): Promise<Record<string, unknown> | undefined> {
    const read = await readSettingsFile(this.file)
    if (read.kind === 'missing') return undefined
    if (read.kind === 'unreadable') {
      this.guard.unreadableBecause(read.message)
      return undefined
    }
    let map: ReturnType<typeof mapSchema.safeParse> | undefined
    try {
      const envelope = envelopeSchema.safeParse(JSON.parse(read.text))
      map = envelope.success ? mapSchema.safeParse((envelope.data as Record<string, unknown>)[this.field]) : undefined
    } catch {
      map = undefined
    }
    if (map?.success) return map.data
    this.guard.partlyRead()
    return undefined
  }

  /** Writes `entries` as the whole map, after the writes asked before; a failed write is thrown to this caller only. */
  write(entries: Map<string, unknown>): Promise<void> {
    const body = JSON.stringify({ version: 1, [this.field]: Object.fromEntries(entries) }, null, 2) + '\n'
    const run = this.writing.then(async () => {
      const allowed = await this.guard.beforeReplace()
      if (!allowed.ok) throw new Error(allowed.message)
      await writeFileAtomic(this.file, body)
    })
    this.writing = run.catch(() => undefined)
    return run
  }

  /** Once the writes asked so far are done (written or failed). */
  settled(): Promise<void> {
    return this.writing.then(() => undefined)
  }
}

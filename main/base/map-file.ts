/**
 * A small file in Bosun's home that holds one map, `{ "version": 1, "<field>": { key: value, … } }` (the ACP
 * version each command settled on, the logins that read their key from the environment): read once without
 * trusting what is at its path, written whole and atomically, one write after another in the order asked.
 */
import { z } from 'zod'
import { writeFileAtomic } from './atomic-write'
import { readSettingsText } from './settings-file'

const envelopeSchema = z.looseObject({ version: z.literal(1) })
const mapSchema = z.record(z.string(), z.unknown())

export class MapFile {
  private writing: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly file: string,
    private readonly field: string,
  ) {}

  /** The map as the file has it, in its order; undefined when there is none, it cannot be read, or it is not of this shape. */
  async read(): Promise<Record<string, unknown> | undefined> {
    try {
      const envelope = envelopeSchema.safeParse(JSON.parse(await readSettingsText(this.file)))
      const map = envelope.success ? mapSchema.safeParse((envelope.data as Record<string, unknown>)[this.field]) : undefined
      return map?.success ? map.data : undefined
    } catch {
      return undefined
    }
  }

  /** Writes `entries` as the whole map, after the writes asked before; a failed write is thrown to this caller only. */
  write(entries: Map<string, unknown>): Promise<void> {
    const body = JSON.stringify({ version: 1, [this.field]: Object.fromEntries(entries) }, null, 2) + '\n'
    const run = this.writing.then(() => writeFileAtomic(this.file, body))
    this.writing = run.catch(() => undefined)
    return run
  }

  /** Once the writes asked so far are done (written or failed). */
  settled(): Promise<void> {
    return this.writing.then(() => undefined)
  }
}

/**
 * Per-session audit trail of permission decisions: `home/audit/<session>.jsonl`, one JSON line per
 * decision (who, what, when). It records the request title and the chosen option only, never raw
 * input, commands, diffs or `_meta`, which can carry secrets (checklist J6).
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { createLogger, type Logger } from '../base/log'
import { appendToFile } from '../base/append-file'
import { sha256Hex } from '../base/sha256'

export interface AuditRecord {
  /** Epoch ms. */
  at: number
  sessionId: string
  agentId: string
  requestId: string
  /** Who decided: the person, a remembered rule, the auto-approve switch, a cancellation, the agent, or its exit. */
  by: 'person' | 'rule' | 'auto-approve' | 'cancel' | 'agent-cancel' | 'agent-exit'
  outcome: 'selected' | 'cancelled' | 'gone'
  title: string
  option?: { optionId: string; name: string; kind: string }
  ruleId?: string
  note?: string
}

const MAX_TEXT = 300

const clip = (text: string): string => (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT - 1) + '…' : text)

/** An id cut as {@link clip} cuts a text, with a hash of the whole, so two long ids that start alike stay apart. */
const clipId = (id: string): string => (id.length > MAX_TEXT ? `${id.slice(0, MAX_TEXT - 14)}…${sha256Hex(id).slice(0, 12)}` : id)

/** A file name for a session id chosen by the agent: never a path, never too long. */
export function auditFileName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
  const hash = sha256Hex(sessionId).slice(0, 12)
  return `${safe}-${hash}.jsonl`
}

export class AuditLog {
  private readonly dir: string
  private tail: Promise<void> = Promise.resolve()

  constructor(home: string, private readonly log: Logger = createLogger('permissions audit')) {
    this.dir = join(home, 'audit')
  }

  pathFor(sessionId: string): string {
    return join(this.dir, auditFileName(sessionId))
  }

  /** Appends a record; failures are logged, never thrown (auditing must not break answering). */
  append(record: AuditRecord): void {
    const line =
      JSON.stringify({
        ...record,
        // Every text the agent chose is clipped: its ids and option kind too (an option id may be 1,024 characters).
        sessionId: clipId(record.sessionId),
        requestId: clipId(record.requestId),
        title: clip(record.title),
        ...(record.option ? { option: { ...record.option, optionId: clipId(record.option.optionId), name: clip(record.option.name), kind: clip(record.option.kind) } } : {}),
        ...(record.note ? { note: clip(record.note) } : {}),
      }) + '\n'
    const path = this.pathFor(record.sessionId)
    this.tail = this.tail
      .then(async () => {
        await fs.mkdir(this.dir, { recursive: true })
        await appendToFile(path, line)
      })
      .catch((error) => this.log.error('cannot append audit record', error))
  }

  /** Resolves when every record appended so far is on disk. */
  flush(): Promise<void> {
    return this.tail
  }
}

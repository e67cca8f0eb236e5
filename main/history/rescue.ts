/**
 * Sessions Bosun could not write to the history when it quit (history off: the file could not be opened, or writes
 * failed), kept in files of their own beside it so a quit does not lose them, and written to the history once it
 * opens (at the next start, or when writes work again).
 *
 * One file per session, named by a hash of its id: a session rescued at two quits keeps its newest state. Each holds a
 * {@link StoredSession} (the rows as the store would give them), written atomically.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { writeFileAtomicSync } from '../base/atomic-write'
import { sha256Hex } from '../base/sha256'
import { join } from 'node:path'
import type { HistoryStore, StoredSession } from './history-store'

/** The folder in Bosun's home that holds them. */
export const RESCUE_FOLDER = 'history-unsaved'

/** A rescued file larger than this is not read (it was not written by Bosun, or not whole): it is kept aside. */
const MAX_RESCUE_FILE_BYTES = 512 * 1024 * 1024

const FORMAT = 'bosun-unsaved-session'

const fileOf = (dir: string, sessionId: string) => join(dir, `${sha256Hex(sessionId).slice(0, 32)}.json`)

/** Whether a session of this id waits in `dir` to be written (a new session must not take its id). */
export const isRescued = (dir: string, sessionId: string): boolean => existsSync(fileOf(dir, sessionId))

/** Removes the file that kept a session (the history has it now, or the person deleted it); a failure is left for the next start. */
export function dropRescued(dir: string, sessionId: string): void {
  try {
    rmSync(fileOf(dir, sessionId), { force: true })
  } catch {
    // The next start finds the history has it (or a newer copy) and removes the file then.
  }
}

/**
 * Writes each session to its own file in `dir`, synchronously (Bosun is quitting). Returns the ids written and, for each
 * that could not be, why (a full disk fails this too: the caller logs what is lost).
 */
export function saveRescued(dir: string, sessions: StoredSession[]): { saved: string[]; failed: { sessionId: string; reason: string }[] } {
  const saved: string[] = []
  const failed: { sessionId: string; reason: string }[] = []
  for (const session of sessions) {
    const sessionId = session.row.sessionId
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      writeFileAtomicSync(fileOf(dir, sessionId), JSON.stringify({ format: FORMAT, session }), { sync: true })
      saved.push(sessionId)
    } catch (error) {
      failed.push({ sessionId, reason: error instanceof Error ? error.message : String(error) })
    }
  }
  return { saved, failed }
}

/** What {@link restoreRescued} did: the ids written to the history, and the files it could not use (kept aside). */
export interface RescueOutcome {
  restored: string[]
  unreadable: string[]
}

/**
 * Writes the sessions rescued in `dir` to `store` (which must be open), one at a time, removing each file once the
 * store has it. A stored session of the same id is kept when it is newer than the rescued one (the history was written
 * after all); a different session that took its id is kept aside (`<id>#n`), as for a session made while history was
 * off. A file that cannot be read is renamed `.unreadable` and never tried again. A write that fails stops the rest:
 * they stay for the next time. A session `held` (this run's recorder still has it to write) is left to it.
 */
export async function restoreRescued(dir: string, store: HistoryStore, held: (sessionId: string) => boolean = () => false): Promise<RescueOutcome> {
  const outcome: RescueOutcome = { restored: [], unreadable: [] }
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'))
  } catch {
    return outcome
  }
  for (const name of names) {
    const file = join(dir, name)
    const session = readRescued(file)
    if (!session) {
      outcome.unreadable.push(file)
      try {
        renameSync(file, `${file}.unreadable`)
      } catch {
        // Left as it is: tried again next time.
      }
      continue
    }
    const { row, entries } = session
    // Kept in this run, and still held to be written (a session closed while writes failed): its writer removes the file.
    if (held(row.sessionId)) continue
    const stored = store.summary(row.sessionId)
    const same = stored !== undefined && stored.agentId === row.agentId && stored.acpSessionId === row.acpSessionId && stored.createdAt === row.createdAt
    if (!same || stored.updatedAt <= row.updatedAt) {
      if (stored && !same) store.keepAside?.(row.sessionId)
      const { customTitle: _title, archived: _archived, ...sessionRow } = row
      await store.write([{ session: sessionRow, entries, entriesEnd: entries.length }])
      outcome.restored.push(row.sessionId)
    }
    rmSync(file, { force: true })
  }
  return outcome
}

/** The session in a rescue file, or undefined when it is not one Bosun wrote whole. */
function readRescued(file: string): StoredSession | undefined {
  try {
    if (statSync(file).size > MAX_RESCUE_FILE_BYTES) return undefined
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; session?: StoredSession }
    const session = parsed.session
    if (parsed.format !== FORMAT || typeof session !== 'object' || session === null) return undefined
    const { row, entries } = session
    const text = (value: unknown) => typeof value === 'string'
    if (typeof row !== 'object' || row === null || !text(row.sessionId) || !text(row.agentId) || !text(row.acpSessionId) || !text(row.cwd) || !text(row.state)) return undefined
    if (typeof row.createdAt !== 'number' || typeof row.updatedAt !== 'number' || (row.protocolVersion !== 1 && row.protocolVersion !== 2)) return undefined
    if (!Array.isArray(entries) || !entries.every((e) => Number.isInteger(e?.position) && text(e.entryId) && text(e.kind) && text(e.body))) return undefined
    return session
  } catch {
    return undefined
  }
}

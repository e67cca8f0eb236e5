/**
 * Sessions Bosun could not write to the history when it quit are kept in files of their own (`rescue.ts`) and written
 * once the history opens: not lost to a quit while history is off, never over a newer stored copy, never over another
 * session that took the id, and a damaged file never stops the rest.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../../main/base/log'
import { HISTORY_OFF, type SessionWrite, type StoredSession } from '../../../main/history/history-store'
import { FileHistoryStore } from '../../support/file-history-store'
import { HistoryRecorder, RESCUE_INTERVAL_MS } from '../../../main/history/recorder'
import { createHistoryService } from '../../../main/history/service'
import { RecordingSink } from '../../support/recording-sink'
import { isRescued, restoreRescued, saveRescued } from '../../../main/history/rescue'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { HistorySummary } from '../../../common/contract/history'

/** A store in memory: its writes fail while `off` (history off) or `failWrites` (a full disk); `stored` is what it lists. */
class MemoryStore extends FileHistoryStore {
  off = false
  failWrites = false
  readonly stored = new Map<string, HistorySummary>()
  readonly asides: string[] = []
  override write(writes: SessionWrite[]): void {
    if (this.off) throw Object.assign(new Error('History is off'), { code: HISTORY_OFF })
    if (this.failWrites) throw new Error('SQLITE_FULL: database or disk is full')
    this.written.push(...writes)
  }
  isOff(): boolean {
    return this.off
  }
  override summary(sessionId: string): HistorySummary | undefined {
    return this.stored.get(sessionId)
  }
  override has(sessionId: string): boolean {
    return this.stored.has(sessionId)
  }
  keepAside(sessionId: string): string {
    this.asides.push(sessionId)
    return `${sessionId}#2`
  }
}

const quiet = createLogger('test', () => undefined)
const prompt = (text: string) => ({ type: 'local_prompt' as const, content: [{ type: 'text' as const, text }] })
const session = (id: string, text: string) =>
  applyActions(createSessionState({ sessionId: id, acpSessionId: id, agentId: 'a', protocolVersion: 1, cwd: '/w' }), [prompt(text)])

const dirs: string[] = []
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-rescue-'))
  dirs.push(dir)
  return join(dir, 'history-unsaved')
}
afterEach(() => {
  vi.useRealTimers()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** What a recorder over `store` hands to rescue when disposed after tracking `states`. */
function quitWith(store: MemoryStore, ...states: ReturnType<typeof session>[]): StoredSession[] {
  const rescued: StoredSession[] = []
  const recorder = new HistoryRecorder(store, { logger: quiet, intervalMs: 60_000, rescue: (sessions) => rescued.push(...sessions) })
  for (const state of states) recorder.track(state, { createdAt: 10, updatedAt: 20 })
  recorder.dispose()
  return rescued
}

describe('sessions kept when Bosun quits while the history cannot be written', () => {
  it('are handed over only when the store is off or its writes fail', () => {
    const working = new MemoryStore()
    expect(quitWith(working, session('a/1', 'hello'))).toEqual([])
    expect(working.written.map((w) => w.session.sessionId)).toEqual(['a/1'])

    const off = new MemoryStore()
    off.off = true
    const rescued = quitWith(off, session('a/1', 'hello'), session('a/2', 'world'))
    expect(rescued.map((s) => s.row.sessionId)).toEqual(['a/1', 'a/2'])
    expect(rescued[0]!.entries.map((e) => e.kind)).toEqual(['user_message'])
    expect(rescued[0]!.entries[0]!.body).toContain('hello')

    const full = new MemoryStore()
    full.failWrites = true
    expect(quitWith(full, session('a/1', 'hello')).map((s) => s.row.sessionId)).toEqual(['a/1'])
  })

  it('are written to the history once it opens, each file removed once written', async () => {
    const dir = folder()
    const off = new MemoryStore()
    off.off = true
    const rescued = quitWith(off, session('a/1', 'hello'), session('a/2', 'world'))
    expect(saveRescued(dir, rescued)).toEqual({ saved: ['a/1', 'a/2'], failed: [] })
    expect(isRescued(dir, 'a/1')).toBe(true)
    expect(isRescued(dir, 'a/3')).toBe(false)

    // Still off at the next start: nothing is written, the files stay.
    const next = new MemoryStore()
    next.failWrites = true
    await expect(restoreRescued(dir, next)).rejects.toThrow(/disk is full/)
    expect(next.written).toEqual([])
    expect(readdirSync(dir)).toHaveLength(2)

    next.failWrites = false
    const outcome = await restoreRescued(dir, next)
    expect(outcome.restored.sort()).toEqual(['a/1', 'a/2'])
    expect(next.written.map((w) => [w.session.sessionId, w.entries.length, w.entriesEnd])).toEqual(
      expect.arrayContaining([
        ['a/1', 1, 1],
        ['a/2', 1, 1],
      ]),
    )
    expect(readdirSync(dir)).toEqual([])
    expect(isRescued(dir, 'a/1')).toBe(false)
  })

  it('never write over a newer copy of the same session, and keep aside another session that took the id', async () => {
    const dir = folder()
    const off = new MemoryStore()
    off.off = true
    saveRescued(dir, quitWith(off, session('a/1', 'older'), session('a/2', 'mine')))
    const store = new MemoryStore()
    const summary = (id: string, createdAt: number, updatedAt: number): HistorySummary => ({
      sessionId: id, agentId: 'a', acpSessionId: id, cwd: '/w', title: null, createdAt, updatedAt, protocolVersion: 1, archived: false, interrupted: false,
    })
    // a/1 was written after all, later than the kept copy; a/2 is another session (made at another time) under that id.
    store.stored.set('a/1', summary('a/1', 10, Number.MAX_SAFE_INTEGER))
    store.stored.set('a/2', summary('a/2', 55, 56))
    const outcome = await restoreRescued(dir, store)
    expect(outcome.restored).toEqual(['a/2'])
    expect(store.asides).toEqual(['a/2'])
    expect(store.written.map((w) => w.session.sessionId)).toEqual(['a/2'])
    expect(readdirSync(dir)).toEqual([])
  })

  it('are written while Bosun runs, once writes that failed work again, and the person is told', async () => {
    const dir = folder()
    const off = new MemoryStore()
    off.off = true
    saveRescued(dir, quitWith(off, session('a/1', 'kept at the last quit')))
    const store = new MemoryStore()
    store.off = true
    const events = new RecordingSink()
    const history = createHistoryService({ store, events, logger: quiet, openProblem: 'History is off', intervalMs: 1, rescueDir: dir })
    // Its id stays taken while it waits.
    expect(history.hooks.isTaken('a/1')).toBe(true)
    history.hooks.created(session('a/2', 'new'), {})
    await events.next('historyChanged')
    // The one kept at the last quit, and the new one, kept aside while it is open (a kill would lose nothing).
    expect(readdirSync(dir)).toHaveLength(2)
    store.off = false
    const notice = await events.next('appNotice')
    expect(notice).toMatchObject({ severity: 'info', title: 'A session was recovered' })
    expect(store.written.map((w) => w.session.sessionId).sort()).toEqual(['a/1', 'a/2'])
    expect(readdirSync(dir)).toEqual([])
    expect(history.hooks.isTaken('a/1')).toBe(false)
    history.dispose()
  })

  it('are kept at their close while writes fail (a crash then loses nothing), and the file goes once the history has them', async () => {
    const dir = folder()
    const store = new MemoryStore()
    const events = new RecordingSink()
    const history = createHistoryService({ store, events, logger: quiet, openProblem: null, intervalMs: 60_000, rescueDir: dir })
    history.hooks.created(session('a/1', 'open'), {})
    history.flush()
    store.failWrites = true
    history.hooks.changed(session('a/1', 'closed while the disk is full'))
    history.hooks.closed('a/1')
    // On disk at once, before any quit: Bosun killed now would find it at the next start.
    expect(readdirSync(dir)).toHaveLength(1)
    // Writes work again: the recorder writes it, the file goes, and nothing is "recovered" (it was never lost).
    store.failWrites = false
    history.flush()
    await events.next('historyChanged', () => !history.problem())
    expect(store.written.at(-1)!.session.sessionId).toBe('a/1')
    expect(readdirSync(dir)).toEqual([])
    expect(events.of('appNotice').filter((n) => n.severity === 'info')).toEqual([])
    history.dispose()
  })

  it('rename a file that is not one Bosun wrote whole, and write the rest', async () => {
    const dir = folder()
    const off = new MemoryStore()
    off.off = true
    saveRescued(dir, quitWith(off, session('a/1', 'hello')))
    writeFileSync(join(dir, 'broken.json'), '{"format":"bosun-unsaved-session","session":{"row":')
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ format: 'bosun-unsaved-session', session: { row: { sessionId: 1 }, entries: [] } }))
    const store = new MemoryStore()
    const outcome = await restoreRescued(dir, store)
    expect(outcome.restored).toEqual(['a/1'])
    expect(outcome.unreadable.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['broken.json', 'other.json'])
    expect(readdirSync(dir).sort()).toEqual(['broken.json.unreadable', 'other.json.unreadable'])
    // Not tried again.
    expect((await restoreRescued(dir, store)).unreadable).toEqual([])
  })

  it('say which sessions could not be kept (a folder that cannot be made)', () => {
    const dir = folder()
    writeFileSync(dir, 'a file where the folder should be')
    const off = new MemoryStore()
    off.off = true
    const { saved, failed } = saveRescued(dir, quitWith(off, session('a/1', 'hello')))
    expect(saved).toEqual([])
    expect(failed).toEqual([{ sessionId: 'a/1', reason: expect.stringMatching(/EEXIST|ENOTDIR/) }])
  })
})

describe('open sessions while the history cannot be written', () => {
  /** A recorder over `store` whose timers and clock the test runs; what it hands to rescue, and the copies it lets go. */
  function recorderOn(store: MemoryStore) {
    const timers: (() => void)[] = []
    const clock = { now: 1_000 }
    const rescued: { ids: string[]; texts: string[]; when: string }[] = []
    const done: string[] = []
    const recorder = new HistoryRecorder(store, {
      logger: quiet,
      intervalMs: 250,
      now: () => clock.now,
      scheduler: { setTimeout: (fn) => timers.push(fn), clearTimeout: () => undefined },
      rescue: (sessions, when) => rescued.push({ ids: sessions.map((s) => s.row.sessionId), texts: sessions.map((s) => s.entries.map((e) => e.body).join()), when }),
      rescueDone: (sessionId) => done.push(sessionId),
    })
    /** Runs the write timer, `ms` after the last one. */
    const tick = (ms: number) => {
      clock.now += ms
      for (const fn of timers.splice(0)) fn()
    }
    return { recorder, rescued, done, tick }
  }

  it('are kept aside as they change, at most every RESCUE_INTERVAL_MS, and their copies go once a later write is confirmed', () => {
    const store = new MemoryStore()
    const { recorder, rescued, done, tick } = recorderOn(store)
    recorder.track(session('a/1', 'first'), { createdAt: 10, updatedAt: 20 })
    recorder.track(session('a/2', 'other'), { createdAt: 10, updatedAt: 20 })
    tick(250)
    expect(rescued).toEqual([])

    store.failWrites = true
    recorder.changed(session('a/1', 'typed while the disk is full'))
    tick(250)
    // The write failed: the session that changed is kept at once (a kill now loses nothing), the other one was written.
    expect(rescued).toEqual([{ ids: ['a/1'], texts: [expect.stringContaining('typed while the disk is full')], when: 'open' }])

    recorder.changed(session('a/1', 'more, five seconds later'))
    tick(5_000)
    expect(rescued).toHaveLength(1)

    recorder.changed(session('a/1', 'more, half a minute later'))
    tick(RESCUE_INTERVAL_MS)
    expect(rescued).toHaveLength(2)
    expect(rescued[1]).toEqual({ ids: ['a/1'], texts: [expect.stringContaining('half a minute later')], when: 'open' })

    // Unchanged since it was kept: not kept again.
    recorder.changed(session('a/2', 'the other one changed'))
    tick(RESCUE_INTERVAL_MS)
    expect(rescued[2]?.ids).toEqual(['a/2'])
    expect(done).toEqual([])

    // Writes work again: once each session's newer state is confirmed, its copy goes.
    store.failWrites = false
    recorder.changed(session('a/1', 'the disk has room again'))
    tick(5_000)
    expect(done.sort()).toEqual(['a/1', 'a/2'])
    recorder.dispose()
  })

  it('are kept aside by the history service, so Bosun killed while the disk is full loses nothing at the next start', async () => {
    vi.useFakeTimers()
    const dir = folder()
    const store = new MemoryStore()
    const history = createHistoryService({ store, events: new RecordingSink(), logger: quiet, openProblem: null, intervalMs: 250, rescueDir: dir })
    history.hooks.created(session('a/1', 'open'), {})
    history.flush()
    store.failWrites = true
    history.hooks.changed(session('a/1', 'typed while the disk is full'))
    vi.advanceTimersByTime(250)
    expect(readdirSync(dir)).toHaveLength(1)
    // Killed here: no quit, nothing disposed. The next start writes the kept session to the history.
    vi.useRealTimers()
    const next = new MemoryStore()
    expect((await restoreRescued(dir, next)).restored).toEqual(['a/1'])
    expect(next.written[0]!.entries.map((e) => e.body).join()).toContain('typed while the disk is full')
  })
})

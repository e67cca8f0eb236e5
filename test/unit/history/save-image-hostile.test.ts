/**
 * saveImage from a page that cannot be trusted: many calls at once, hashes the session does not hold asked again and
 * again, an image that changes under it. Main opens one dialog at a time and refuses the calls that come meanwhile at
 * once, hashes each image of a session once (not once a call: a session holds hundreds of MB of images, and each call
 * held main for seconds), and a changed image is found by its new hash, never by its old one.
 */
import * as crypto from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../../main/base/log'
import { NullHistoryStore, type HistoryStore, type StoredSession } from '../../../main/history/history-store'
import { encodeEntry, encodeSessionState } from '../../../main/history/entry-codec'
import { createHistoryService, type HistorySessionsPort } from '../../../main/history/service'
import type { SaveFile } from '../../../main/app/services'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import type { SessionState } from '../../../common/session/types'
import { RecordingSink } from '../../support/recording-sink'

const hashed = vi.hoisted(() => ({ count: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>()
  return {
    ...real,
    createHash: (...args: Parameters<typeof real.createHash>) => {
      hashed.count++
      return real.createHash(...args)
    },
  }
})

const sha = (base64: string) => crypto.createHash('sha256').update(base64).digest('hex')
const image = (n: number) => Buffer.from(`image ${n} `.repeat(1000)).toString('base64')

/** A session of 20 message images and a tool call's: new objects each time (main keeps the hashes of the ones it saw). */
const session = (): SessionState =>
  applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [
  {
    type: 'updates',
    updates: [
      ...Array.from({ length: 20 }, (_, i) => ({ sessionUpdate: 'agent_message_chunk' as const, messageId: 'm', content: { type: 'image' as const, mimeType: 'image/png', data: image(i) } })),
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Shot', kind: 'read', status: 'in_progress', content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data: image(100) } }] },
    ],
  },
  ])
let state = session()

/** The same session as stored in the history (not open), counting its reads. */
class StoredImages extends (NullHistoryStore as new () => Omit<NullHistoryStore, 'load'>) implements HistoryStore {
  loads = 0
  load = (sessionId: string): StoredSession | undefined => {
    if (sessionId !== 'a/s2') return undefined
    this.loads++
    const stored = { ...session(), sessionId: 'a/s2', acpSessionId: 's2' }
    const { sessionId: _, agentId, acpSessionId, cwd } = stored
    return {
      row: { sessionId, agentId, acpSessionId, cwd, title: null, createdAt: 1, updatedAt: 1, protocolVersion: 1, capabilities: null, turnState: 'idle', state: encodeSessionState(stored), customTitle: null, archived: false },
      entries: stored.entries.map((entry, position) => ({ position, entryId: entry.id, kind: entry.kind, ...encodeEntry(entry) })),
    }
  }
}

function setup(saveFile: SaveFile, store: HistoryStore = new NullHistoryStore()) {
  state = session()
  const history = createHistoryService({ store, events: new RecordingSink(), logger: createLogger('test', () => undefined), openProblem: null, saveFile })
  history.bind({ has: (id: string) => id === 'a/s1', snapshot: () => undefined, state: (id: string) => (id === 'a/s1' ? state : undefined) } as unknown as HistorySessionsPort)
  return history
}

/** The service with a save dialog that stays open until the test answers it; `asked`: the names it was asked to save. */
function heldDialog() {
  let answerNow: (path: string | null) => void = () => undefined
  const asked: string[] = []
  const history = setup((name) => {
    asked.push(name)
    return new Promise((resolve) => (answerNow = resolve))
  })
  return { history, asked, answer: (path: string | null) => answerNow(path) }
}

describe('saveImage from a hostile page', () => {
  it('one dialog at a time: calls while it is open are refused at once, and the next one after it works', async () => {
    const { history, asked, answer } = heldDialog()
    const first = history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(3)) })
    await vi.waitFor(() => expect(asked).toHaveLength(1))
    const meanwhile = await Promise.all(Array.from({ length: 50 }, (_, i) => history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(i % 20)) })))
    expect(new Set(meanwhile.map((r) => !r.ok && r.error.kind))).toEqual(new Set(['busy']))
    expect(asked).toHaveLength(1)
    answer('/saved/one.png')
    expect(await first).toEqual({ ok: true, value: { savedTo: '/saved/one.png' } })
    const next = history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(4)) })
    await vi.waitFor(() => expect(asked).toHaveLength(2))
    answer(null)
    expect(await next).toEqual({ ok: true, value: { savedTo: null } })
    history.dispose()
  })

  it('hashes each image once however many unknown hashes are asked for; an image that changes is found by its new hash only', async () => {
    const history = setup(async () => '/x')
    hashed.count = 0
    expect((await history.handlers.saveImage({ sessionId: 'a/s1', sha256: '0'.repeat(64) })).ok).toBe(false)
    expect(hashed.count).toBe(21)
    for (let i = 1; i < 200; i++) expect((await history.handlers.saveImage({ sessionId: 'a/s1', sha256: i.toString(16).padStart(64, '0') })).ok).toBe(false)
    expect(hashed.count).toBe(21)
    // The tool call's image is replaced by another.
    state = applyActions(state, [{ type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data: image(101) } }] }] }])
    const before = hashed.count
    expect(await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(101)) })).toEqual({ ok: true, value: { savedTo: '/x' } })
    const old = await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(100)) })
    expect(!old.ok && old.error.kind).toBe('not-found')
    // The new image hashed once (the test's own two hashes aside): the others kept theirs.
    expect(hashed.count - before).toBe(3)
    history.dispose()
  })

  it('refuses a session that is only in the history, saying to open it, without reading or hashing it (each call did both)', async () => {
    const store = new StoredImages()
    const asked: string[] = []
    const history = setup(async (name) => {
      asked.push(name)
      return '/x'
    }, store)
    hashed.count = 0
    for (let i = 0; i < 50; i++) {
      const refused = await history.handlers.saveImage({ sessionId: 'a/s2', sha256: i === 0 ? sha(image(3)) : i.toString(16).padStart(64, '0') })
      expect(refused).toEqual({ ok: false, error: { kind: 'not-found', message: 'This session is not open: open it from the history to save its images.' } })
    }
    // The test's own hash of image 3 aside.
    expect(hashed.count).toBe(1)
    expect(store.loads).toBe(0)
    expect(asked).toEqual([])
    // The open one still saves.
    expect(await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(3)) })).toEqual({ ok: true, value: { savedTo: '/x' } })
    history.dispose()
  })

  it('an export while a save dialog is open is refused at once, without rendering the session; the image waits for the export the same way', async () => {
    const { history, asked, answer } = heldDialog()
    let reads = 0
    history.bind({ has: (id: string) => id === 'a/s1', snapshot: () => undefined, state: (id: string) => (reads++, id === 'a/s1' ? state : undefined) } as unknown as HistorySessionsPort)
    const first = history.handlers.historyExport({ sessionId: 'a/s1', format: 'json' })
    await vi.waitFor(() => expect(asked).toHaveLength(1))
    const readsBefore = reads
    const meanwhile = await Promise.all([
      ...Array.from({ length: 50 }, () => history.handlers.historyExport({ sessionId: 'a/s1', format: 'markdown' })),
      history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(image(1)) }),
    ])
    expect(meanwhile.map((r) => !r.ok && r.error)).toEqual(Array.from({ length: 51 }, () => ({ kind: 'busy', message: 'Another export or image is being saved; finish that one first.' })))
    expect(reads).toBe(readsBefore)
    answer('/saved/s1.json')
    expect(await first).toMatchObject({ ok: true, value: { savedTo: '/saved/s1.json' } })
    const next = history.handlers.historyExport({ sessionId: 'a/s1', format: 'markdown' })
    await vi.waitFor(() => expect(asked).toHaveLength(2))
    answer(null)
    expect(await next).toMatchObject({ ok: true, value: { savedTo: null } })
    history.dispose()
  })
})

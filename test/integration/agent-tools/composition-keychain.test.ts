/**
 * Through the composition root with the real keychain (`scripts/with-keyring.sh npx vitest run
 * test/integration/agent-tools`): env-var login stores the key in the keychain and restarts the agent
 * with it; the canary key then appears in agent A's environment and nowhere else — not B's env, not a
 * terminal started for B, not the log files, not the inspector export, not any event sent to the renderer.
 *
 * The composition root uses the keychain service "Bosun", so this only runs inside the private keyring
 * of with-keyring.sh (never against a person's own keychain).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import type { BosunServices } from '../../../main/app/services'
import { RecordingSink } from '../../support/recording-sink'
import { ENV_AGENT, must } from './harness'
import { requirePrivateKeychain } from '../../support/private-keychain'

const hasKeychain = await requirePrivateKeychain()

describe.skipIf(!hasKeychain)('agent tools through the composition root (real keychain)', () => {
  const CANARY = `canary-${process.pid}-${Date.now()}-keychain`
  const home = mkdtempSync(join(tmpdir(), 'bosun-tools-kc-'))
  const workspace = mkdtempSync(join(tmpdir(), 'bosun-tools-kc-ws-'))
  const dump = (id: string) => join(home, `dump-${id}.json`)
  let services: BosunServices | undefined

  afterAll(async () => {
    if (services) {
      // Also removes A's keychain entry.
      await services.handlers.removeAgentDefinition({ agentId: 'A' })
      await services.dispose()
    }
    rmSync(home, { recursive: true, force: true })
    rmSync(workspace, { recursive: true, force: true })
  })

  it('env-var login, then the canary stays in agent A', async () => {
    const agent = (id: string) => ({
      id,
      name: `Agent ${id}`,
      command: process.execPath,
      // A prints its key (stderr and a message in the session) as a careless agent might.
      args: [ENV_AGENT, '--var', 'ACME_KEY', '--dump-env', dump(id), ...(id === 'A' ? ['--echo-secret'] : [])],
      env: {},
      secretEnv: [],
      defaultCwd: workspace,
      protocolVersion: 1,
    })
    writeFileSync(join(home, 'agents.json'), JSON.stringify({ version: 1, agents: [agent('A'), agent('B')] }))
    const sink = new RecordingSink()
    services = await createBosunServices({ home, host: 'web', appVersion: '0.0.0-test', events: sink })
    const h = services.handlers
    must(await h.watchInspector({ agentId: 'A', watching: true }))
    must(await h.watchInspector({ agentId: 'B', watching: true }))

    // Env-var login on A.
    expect(await h.newSession({ agentId: 'A', cwd: workspace })).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    const { methods } = must(await h.listAuthMethods({ agentId: 'A' }))
    expect(methods.find((m) => m.id === 'api-key')).toMatchObject({ type: 'env_var', envName: 'ACME_KEY' })
    expect(must(await h.loginAgent({ agentId: 'A', methodId: 'api-key', value: CANARY }))).toEqual({ restarted: true })
    const listed = must(await h.listAgentDefinitions(undefined)).agents.find((a) => a.id === 'A')!
    expect(listed.secretEnv).toEqual(['ACME_KEY'])
    expect(listed.secretsSet).toEqual({ ACME_KEY: true })
    const sessionA = must(await h.newSession({ agentId: 'A', cwd: workspace }))
    expect(JSON.parse(readFileSync(dump('A'), 'utf8')).env.ACME_KEY).toBe(CANARY)
    // The echoed key reached the transcript hidden: in the new session's first state when the update
    // overtook the session/new answer, in a later batch otherwise.
    const added = JSON.stringify(await sink.next('sessionAdded', (p) => p.session.sessionId === sessionA.sessionId))
    const echoed = added.includes('key=')
      ? added
      : JSON.stringify(await sink.next('sessionActions', (batch) => batch.sessionId === sessionA.sessionId && JSON.stringify(batch.actions).includes('key=')))
    expect(echoed).toContain('key=«redacted»')

    // Everything else, for both agents.
    const checkA = must(await h.checkAgentConnection({ agentId: 'A' }))
    expect(checkA.ok).toBe(true)
    must(await h.checkAgentConnection({ agentId: 'B' }))
    expect(await h.newSession({ agentId: 'B', cwd: workspace })).toMatchObject({ ok: false, error: { kind: 'auth-required' } })
    const readyBefore = new Set(sink.of('agentStatus'))
    const { terminalId } = must(await h.startAuthTerminal({ agentId: 'B', methodId: 'term' }))
    must(await h.authTerminalInput({ terminalId, data: 'ok\n' }))
    await sink.next('authTerminalOutput', (p) => p.terminalId === terminalId && p.exit !== undefined)
    // Exit 0 restarts B (a new ready status, not one from before).
    await sink.next('agentStatus', (v) => v.agentId === 'B' && v.status === 'ready' && !readyBefore.has(v))
    const collected = {
      logs: [must(await h.getAgentLog({ agentId: 'A' })), must(await h.getAgentLog({ agentId: 'B' }))],
      exports: [must(await h.exportInspector({ agentId: 'A' })), must(await h.exportInspector({ agentId: 'B' }))],
      lists: [must(await h.listInspectorMessages({ agentId: 'A' })), must(await h.listInspectorMessages({ agentId: 'B' }))],
      snapshot: must(await h.getSnapshot(undefined)),
    }
    must(await h.stopAgent({ agentId: 'A' }))
    must(await h.stopAgent({ agentId: 'B' }))

    expect(readFileSync(dump('B'), 'utf8')).not.toContain(CANARY)
    expect(readFileSync(`${dump('B')}.login`, 'utf8')).not.toContain(CANARY)
    const logDir = join(home, 'logs', 'agents')
    for (const file of readdirSync(logDir)) expect(readFileSync(join(logDir, file), 'utf8')).not.toContain(CANARY)
    expect(readFileSync(join(home, 'agents.json'), 'utf8')).not.toContain(CANARY)
    expect(JSON.stringify(collected)).not.toContain(CANARY)
    expect(JSON.stringify(sink.events)).not.toContain(CANARY)
    // The exchange really was recorded (the test would be empty otherwise).
    expect(collected.exports[0]!.content).toContain('"method":"session/new"')
    expect(sink.of('inspectorMessages').some((p) => p.agentId === 'A')).toBe(true)

    // A now prints its key as it dies: the failure and the status the renderer gets are redacted.
    const saved = await h.saveAgentDefinition({
      draft: {
        id: 'A',
        name: 'Agent A',
        command: process.execPath,
        argsText: `${ENV_AGENT} --var ACME_KEY --fail-at-start`,
        env: [],
        secretEnv: ['ACME_KEY'],
        defaultCwd: workspace,
        protocolVersion: 1,
      },
    })
    expect(saved.ok).toBe(true)
    // (restartAgent keeps the running host's old launch spec; a new session picks up the saved one.)
    const restarted = await h.newSession({ agentId: 'A', cwd: workspace })
    expect(restarted).toMatchObject({ ok: false, error: { kind: 'agent-exited' } })
    expect(JSON.stringify(restarted)).toContain('«redacted»')
    const failed = await sink.next('agentStatus', (v) => v.agentId === 'A' && v.status === 'failed')
    expect(failed.error?.stderrTail).toContain(`fatal: rejected key «redacted»`)
    expect(JSON.stringify(restarted)).not.toContain(CANARY)
    expect(JSON.stringify(sink.events)).not.toContain(CANARY)
  })
})

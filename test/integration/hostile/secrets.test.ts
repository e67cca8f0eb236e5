/**
 * Issue 13, secrets: a canary key stored for the hostile agent in the real Secret Service (run under
 * `scripts/with-keyring.sh`), an agent that echoes it every way it can (split across chunks and stderr
 * writes, 80 levels deep, base64/hex/URL-encoded, in permission titles, elicitations, a bad stdout line),
 * and a scan of every sink: events, call results, inspector and its export, log files, audit, every file
 * in the home, OS notifications and the console. 0 hits.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { encodedForms, REDACTED } from '../../../main/agents-tools/redaction'
import type { Notifier } from '../../../main/app/services'
import { hostilePerTest, must, repeatUntil, tallyPerFile } from './harness'
import { requirePrivateKeychain } from '../../support/private-keychain'

const hasKeychain = await requirePrivateKeychain()

/** Every file under `dir`, as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path))
    else out.push({ path, text: readFileSync(path, 'utf8') })
  }
  return out
}

describe.skipIf(!hasKeychain)('a hostile agent that echoes its key', () => {
  const tally = tallyPerFile('secrets')
  const start = hostilePerTest()
  const CANARY = `canary-${process.pid}-${Date.now()}-hostile-secret`
  let cleanup: (() => Promise<unknown>) | undefined
  afterAll(async () => {
    await cleanup?.()
  })

  it('leaks it nowhere', async () => {
    const console: string[] = []
    const capture = (...args: unknown[]) => void console.push(args.map(String).join(' '))
    const spies = [vi.spyOn(globalThis.console, 'error').mockImplementation(capture), vi.spyOn(globalThis.console, 'log').mockImplementation(capture)]
    const notifications: unknown[] = []
    const notifier: Notifier = { show: (n) => void notifications.push(n), setBadgeCount: () => undefined }
    const setup = await start('echo-secrets', { secretEnv: ['API_KEY'], extraArgs: ['--secret-env', 'API_KEY'], notifier, isWindowFocused: () => false })
    const { handlers } = setup
    cleanup = () => handlers.removeAgentDefinition({ agentId: 'hostile' })
    try {
      const [def] = must(await handlers.listAgentDefinitions(undefined)).agents.filter((a) => a.id === 'hostile')
      must(
        await handlers.saveAgentDefinition({
          draft: { id: 'hostile', name: def!.name, command: def!.command, argsText: def!.args.join(' '), env: [], secretEnv: ['API_KEY'], defaultCwd: '' },
          secrets: { API_KEY: CANARY },
        }),
      )
      must(await handlers.watchInspector({ agentId: 'hostile', watching: true }))
      const { sessionId } = must(await handlers.newSession({ agentId: 'hostile', cwd: setup.workspace }))
      const turn = handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'echo' }] })

      // What the person sees while the requests wait: the pending list and the request-scoped elicitations.
      const seen: unknown[] = []
      await repeatUntil(setup, turn, async () => {
        const pending = must(await handlers.listPendingPermissions(undefined))
        const scoped = must(await handlers.listRequestScopedElicitations(undefined))
        const snapshot = must(await handlers.getSnapshot(undefined))
        seen.push(pending, scoped, snapshot)
        for (const p of pending) must(await handlers.respondPermission({ requestId: p.requestId, optionId: null }))
        for (const s of scoped) if (s.elicitation.status === 'pending') await handlers.respondElicitation({ elicitationRequestId: s.elicitation.elicitationRequestId, action: 'cancel' })
        const state = snapshot.sessions.find((s) => s.sessionId === sessionId)
        for (const e of Object.values(state?.elicitations ?? {})) {
          if (e.status === 'pending') await handlers.respondElicitation({ elicitationRequestId: e.elicitationRequestId, action: 'decline' })
        }
      })
      expect(must(await turn).stopReason).toBe('end_turn')
      const collected = {
        snapshot: must(await handlers.getSnapshot(undefined)),
        inspector: must(await handlers.listInspectorMessages({ agentId: 'hostile' })),
        export: must(await handlers.exportInspector({ agentId: 'hostile' })),
        log: must(await handlers.getAgentLog({ agentId: 'hostile' })),
        seen,
      }
      must(await handlers.stopAgent({ agentId: 'hostile' }))
      await setup.services.dispose()

      const forms = [CANARY, ...encodedForms(CANARY)]
      const sinks: Record<string, string> = {
        events: JSON.stringify(setup.sink.events),
        calls: JSON.stringify(collected),
        notifications: JSON.stringify(notifications),
        console: console.join('\n'),
      }
      for (const file of filesUnder(setup.testHome.home)) sinks[file.path] = file.text
      const hits = Object.entries(sinks).flatMap(([where, text]) => forms.filter((f) => text.includes(f)).map((f) => `${where}: ${f}`))
      tally.inputs += 14
      tally.secretsLeaked += hits.length
      expect(hits).toEqual([])
      // The attack really happened: the transcript, the log and a notification show the redaction marker.
      expect(JSON.stringify(collected.snapshot)).toContain(REDACTED)
      expect(readFileSync(join(setup.testHome.home, 'logs', 'agents', 'hostile.log'), 'utf8')).toContain(`stderr says ${REDACTED}`)
      expect(notifications.length).toBeGreaterThan(0)
      expect(JSON.stringify(collected.snapshot)).toContain('secrets echoed')
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
  })
})

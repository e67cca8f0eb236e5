/**
 * No orphans with the real app (issue 2, item 7): the composition root with the scripted v1/v2 agent. A crash
 * mid-turn leaves a grandchild behind; the agent comes back by itself (restarting → ready, no restartAgent);
 * then `services.dispose()` must leave no process at all: not the agents before and after the restart, not
 * the grandchild, not anything else in their process groups.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import type { BosunServices } from '../../../main/app/services'
import { scenarioPath } from '../../agents/command'
import { createTestHome, type TestHome } from '../../support/bosun-home'
import { RecordingSink } from '../../support/recording-sink'
import { expectAllGone } from '../agents/helpers'
import { must } from '../../support/must'

let services: BosunServices | undefined
let testHome: TestHome | undefined
let scratch: string | undefined

afterEach(async () => {
  await services?.dispose()
  services = undefined
  testHome?.cleanup()
  testHome = undefined
  if (scratch) rmSync(scratch, { recursive: true, force: true })
  scratch = undefined
})

/** Live processes (zombies count as gone) whose command line mentions `needle` or whose process group is one of `groups`. */
function processesOf(needle: string, groups: Set<number>): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] === 'Z') continue
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (groups.has(Number(fields[2])) || cmdline.includes(needle)) found.push(pid)
    } catch {
      // It ended while we looked.
    }
  }
  return found
}

describe.each([
  ['v1', false],
  ['v2', true],
])('shutdown after an automatic restart (%s scripted agent)', (_label, v2) => {
  it('a crash mid-turn restarts the agent by itself; dispose() then leaves no agent, no grandchild, nothing in their groups', async () => {
    // A private copy of the scenario: its path in a process's command line marks every agent this test started
    // (the v1 agent is started twice on first launch, once per offered version, and only one pid is ever reported).
    scratch = mkdtempSync(join(tmpdir(), 'bosun-shutdown-'))
    const scenario = join(scratch, 'crash-grandchild.json')
    copyFileSync(scenarioPath('crash-grandchild'), scenario)
    testHome = createTestHome([{ id: 'scripted', name: 'Scripted', scenario, v2 }])
    const sink = new RecordingSink()
    services = await createBosunServices({ home: testHome.home, host: 'web', appVersion: '0.0.0-test', events: sink })
    const { handlers } = services

    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: testHome.workspace }))
    const first = await sink.next('agentStatus', (view) => view.status === 'ready')
    const firstPid = first.pid!
    expect(firstPid).toBeGreaterThan(0)

    // The crash ends the turn with the typed failure; the grandchild's pid is in the stderr tail the status carries.
    const beforeCrash = Date.now()
    const crashed = await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'crash' }] })
    expect(crashed.ok ? 'ok' : crashed.error.kind).toBe('agent-exited')
    const restarting = await sink.next('agentStatus', (view) => view.status === 'restarting')
    const afterCrash = Date.now()
    expect(restarting).toMatchObject({ crashCount: 1, error: { kind: 'agent-exited' } })
    expect(restarting.error?.stderrTail).toContain('fatal: out of cheese')
    const grandchild = Number(/GRANDCHILD (\d+)/.exec(restarting.error?.stderrTail ?? '')?.[1])
    expect(grandchild).toBeGreaterThan(0)
    // The policy's first backoff is 1 s after the crash, which happened between the two readings of the clock
    // (a reading taken after the status came could be any time later on a loaded machine).
    expect(restarting.nextRestartAt!).toBeGreaterThanOrEqual(beforeCrash + 1_000)
    expect(restarting.nextRestartAt!).toBeLessThanOrEqual(afterCrash + 1_000)
    // The crashed agent's process group was swept when it exited: its grandchild went with it.
    await expectAllGone([firstPid, grandchild])

    // Back on its own: nobody called restartAgent.
    const second = await sink.next('agentStatus', (view) => view.status === 'ready' && view.pid !== firstPid)
    // Not before the backoff ran out (a timer may fire a millisecond early against the wall clock).
    expect(Date.now()).toBeGreaterThanOrEqual(restarting.nextRestartAt! - 5)
    expect(second).toMatchObject({ crashCount: 1, error: null })
    const secondPid = second.pid!
    expect(secondPid).toBeGreaterThan(0)
    expect(sink.of('agentStatus').map((view) => view.status)).toEqual(['starting', 'ready', 'restarting', 'starting', 'ready'])
    // The same session goes on in the new process.
    expect(must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] })).stopReason).toBe('end_turn')

    const agentPids = [...new Set(sink.of('agentStatus').flatMap((view) => (view.pid ? [view.pid] : [])))]
    expect(agentPids).toEqual([firstPid, secondPid])
    const groups = new Set(agentPids)
    // Only the live agent remains before shutdown; whatever else is in these groups must go too.
    const before = processesOf(scenario, groups)
    expect(before).toContain(secondPid)

    await services.dispose()
    services = undefined
    await expectAllGone([...new Set([...agentPids, grandchild, ...before])])
    expect(processesOf(scenario, groups)).toEqual([])
  })
})

/** Helpers for history tests: the composition root started (and restarted) on one home. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { spawnSync } from 'node:child_process'
import { createBosunServices } from '../../../main/app/create-services'
import { LOCK_FILE } from '../../../main/config/home-lock'
import type { BosunServices } from '../../../main/app/services'
import type { Scenario } from '../../agents/scenario'
import { createTestHome, type TestAgent, type TestHome } from '../../support/bosun-home'
import { RecordingSink } from '../../support/recording-sink'

export interface Run {
  services: BosunServices
  handlers: BosunServices['handlers']
  sink: RecordingSink
}

/** Call at the top of a file: `home(agents)` makes a test home, `start(home)` starts the services on it (again). */
export function historyHarness() {
  const running: BosunServices[] = []
  const cleanups: (() => void)[] = []
  afterEach(async () => {
    for (const services of running.splice(0)) await services.dispose()
    for (const cleanup of cleanups.splice(0)) cleanup()
  })
  return {
    home(agents: TestAgent[], prepare?: (home: TestHome) => void): TestHome {
      const home = createTestHome(agents)
      cleanups.push(() => home.cleanup())
      prepare?.(home)
      return home
    },
    async start(home: TestHome): Promise<Run> {
      const sink = new RecordingSink()
      const services = await createBosunServices({ home: home.home, host: 'web', appVersion: '0.0.0-test', events: sink })
      running.push(services)
      return { services, handlers: services.handlers, sink }
    },
    /**
     * A crash, as far as the home can tell: the run's lock is left behind naming a process that is gone (the
     * run itself keeps going until the test ends), so the next `start` takes the home over like after a crash.
     */
    crashed(home: TestHome): void {
      const lock = join(home.home, LOCK_FILE)
      const holder = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number }
      writeFileSync(lock, JSON.stringify({ ...holder, pid: deadPid() }) + '\n')
    },
    /** Disposes one run (a quit) before starting the next. */
    async stop(run: Run): Promise<void> {
      running.splice(running.indexOf(run.services), 1)
      await run.services.dispose()
    },
    /** A scenario file for this test only (absolute path, usable as a TestAgent's scenario). */
    scenario(scenario: Scenario): string {
      const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
      const file = join(dir, 'scenario.json')
      writeFileSync(file, JSON.stringify(scenario))
      return file
    },
  }
}

export function agentLog(home: TestHome, agentId: string): string {
  try {
    return readFileSync(join(home.home, 'logs', 'agents', `${agentId}.log`), 'utf8')
  } catch {
    return ''
  }
}

/** The pid of a process that has exited (and was reaped). */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', ''])
  if (!pid) throw new Error('could not start a short-lived process')
  return pid
}

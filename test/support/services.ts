/** The composition root (`createBosunServices`, browser host) over a test home, one per test. */
import { afterEach } from 'vitest'
import { createBosunServices } from '../../main/app/create-services'
import type { BosunServices, HostIntegration } from '../../main/app/services'
import type { CallHandlers } from '../../common/contract'
import type { SessionState } from '../../common/session/types'
import { createTestHome, type TestAgent, type TestHome } from './bosun-home'
import { RecordingSink } from './recording-sink'
import { must } from './must'

export { must } from './must'

export interface TestServices {
  services: BosunServices
  handlers: CallHandlers
  /** Every event the services sent. */
  sink: RecordingSink
  testHome: TestHome
  /** A folder usable as a session's working directory. */
  workspace: string
}

/**
 * Call at the top of a test file. Returns `start`, which makes a test home with `agents` (`prepare` may edit it
 * first) and starts the services on it; after each test they are disposed and the home removed.
 */
export function servicesPerTest(): (
  agents: TestAgent[],
  prepare?: (testHome: TestHome) => void,
  integration?: Partial<Pick<HostIntegration, 'limits' | 'notifier' | 'isWindowFocused' | 'secretStore' | 'confirmation'>>,
) => Promise<TestServices> {
  let services: BosunServices | undefined
  let testHome: TestHome | undefined
  afterEach(async () => {
    await services?.dispose()
    services = undefined
    testHome?.cleanup()
    testHome = undefined
  })
  return async (agents, prepare, integration = {}) => {
    const home = (testHome = createTestHome(agents))
    prepare?.(home)
    const sink = new RecordingSink()
    const started = (services = await createBosunServices({ home: home.home, host: 'web', appVersion: '0.0.0-test', events: sink, ...integration }))
    return { services: started, handlers: started.handlers, sink, testHome: home, workspace: home.workspace }
  }
}

/** One session's state as main holds it: now, or once `predicate` holds (re-checked on each of its batches, no polling). */
export function watchSession(t: TestServices, sessionId: string): { state(): Promise<SessionState>; until(predicate: (s: SessionState) => boolean): Promise<SessionState> } {
  const state = async () => must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  const until = async (predicate: (s: SessionState) => boolean) => {
    for (;;) {
      const current = await state()
      if (predicate(current)) return current
      const seq = current.seq
      await t.sink.next('sessionActions', (batch) => batch.sessionId === sessionId && batch.seq > seq)
    }
  }
  return { state, until }
}

/** The params of every `method` request Bosun sent agent `agentId`, as its inspector recorded them. */
export async function sentRequests(t: TestServices, agentId: string, method: string): Promise<unknown[]> {
  return must(await t.handlers.listInspectorMessages({ agentId, method }))
    .messages.filter((m) => m.direction === 'out' && m.kind === 'request')
    .map((m) => (m.message as { params: unknown }).params)
}

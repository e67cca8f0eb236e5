/**
 * Bosun's own files replaced by something hostile: a FIFO where an agent's log goes. Writing the log, reading it for
 * the Logs tab and quitting (which waits for the log) never wait on it: the agent runs its turn, the log call says
 * what is wrong at once, the services stop, and the FIFO is left as it is.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import { RecordingSink } from '../../support/recording-sink'
import { createTestHome } from '../../support/bosun-home'
import { must } from './harness'

it('a FIFO as an agent’s log: the turn runs, the Logs call answers at once, and Bosun stops without waiting on it', async () => {
  const home = createTestHome([{ id: 'a', name: 'A', scenario: 'basic' }])
  try {
    const fifo = join(home.home, 'logs', 'agents', 'a.log')
    mkdirSync(join(home.home, 'logs', 'agents'), { recursive: true })
    execFileSync('mkfifo', [fifo])
    const services = await createBosunServices({ home: home.home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink() })
    const h = services.handlers
    const { sessionId } = must(await h.newSession({ agentId: 'a', cwd: home.workspace }))
    expect(must(await h.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] })).stopReason).toBe('end_turn')
    expect(await h.getAgentLog({ agentId: 'a' })).toMatchObject({ ok: false, error: { message: expect.stringContaining('is not a regular file') } })
    // Quitting flushes every agent's log first: it ends.
    await services.dispose()
    expect(lstatSync(fifo).isFIFO()).toBe(true)
  } finally {
    home.cleanup()
  }
}, 30_000)

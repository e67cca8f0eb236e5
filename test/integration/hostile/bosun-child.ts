/**
 * A whole Bosun (the composition root, browser-host flavour) in its own process, for the tests that kill
 * Bosun itself: `node --import tsx bosun-child.ts <home> <workspace>` opens a session on the agent `hostile`,
 * prints `ready <sessionId>` and waits to be killed.
 */
import { createBosunServices } from '../../../main/app/create-services'
import type { EventSink } from '../../../common/contract'

const [home, workspace] = process.argv.slice(2)
const events: EventSink = { emit: () => undefined }
try {
  const services = await createBosunServices({ home: home!, host: 'web', appVersion: '0.0.0-test', events })
  const created = await services.handlers.newSession({ agentId: 'hostile', cwd: workspace! })
  process.stdout.write(created.ok ? `ready ${created.value.sessionId}\n` : `failed ${created.error.message}\n`)
  setInterval(() => undefined, 1_000_000)
} catch (error) {
  process.stdout.write(`failed ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}

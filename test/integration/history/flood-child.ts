/**
 * Runs the composition root in its own process for the kill -9 test: starts a session, floods it, and
 * prints `applied <characters> <epoch ms>` every 50 ms (what main holds in memory) until it is killed.
 *
 *   node --import tsx flood-child.ts <home> <cwd>
 */
import { createBosunServices } from '../../../main/app/create-services'

const [home, cwd] = process.argv.slice(2)
if (!home || !cwd) {
  process.stderr.write('usage: flood-child.ts <home> <cwd>\n')
  process.exit(2)
}
const services = await createBosunServices({ home, host: 'web', appVersion: '0.0.0-test', events: { emit() {} } })
const created = await services.handlers.newSession({ agentId: 'scripted', cwd })
if (!created.ok) {
  process.stderr.write(`newSession failed: ${created.error.message}\n`)
  process.exit(3)
}
const { sessionId } = created.value
process.stdout.write(`session ${sessionId}\n`)
void services.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'flood' }] })
setInterval(() => {
  void services.handlers.getSnapshot(undefined).then((snapshot) => {
    const session = snapshot.ok ? snapshot.value.sessions.find((s) => s.sessionId === sessionId) : undefined
    let characters = 0
    for (const entry of session?.entries ?? []) {
      if (entry.kind !== 'agent_message') continue
      for (const block of entry.content) if (block.type === 'text' && typeof block.text === 'string') characters += block.text.length
    }
    process.stdout.write(`applied ${characters} ${Date.now()}\n`)
  })
}, 50)

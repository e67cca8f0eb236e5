/**
 * Opens the history store the way the browser host does (`node --import tsx …`, TypeScript sources) and
 * prints `{ "onThread": …, "sessions": … }` after a write and a read-back.
 *
 *   node --import tsx worker-child.ts <home>
 */
import { openHistoryStore, WorkerHistoryStore } from '../../../main/history/worker-history-store'

const home = process.argv[2]
if (!home) {
  process.stderr.write('usage: worker-child.ts <home>\n')
  process.exit(2)
}
const { store, problem } = openHistoryStore(home)
await store.write([
  {
    session: { sessionId: 'a/s1', agentId: 'a', acpSessionId: 's1', cwd: '/w', title: 'From the child', createdAt: 1, updatedAt: 2, protocolVersion: 1, capabilities: null, turnState: 'idle', state: '{}' },
    entries: [],
  },
])
process.stdout.write(`${JSON.stringify({ onThread: store instanceof WorkerHistoryStore, problem, sessions: store.list().map((s) => s.title) })}\n`)
store.dispose()

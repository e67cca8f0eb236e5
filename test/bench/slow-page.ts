/**
 * A page of the browser host that cannot keep up, in a process of its own (`npm run hostile -- --page`): the renderer's
 * socket client and store over a real socket, which, like a browser tab whose main thread is busy, reads nothing while it
 * works. Applying a message costs it 1 ms per `--kb-per-ms` KiB of it (default 10: 10 MB/s); meanwhile its socket is
 * paused. Says what it applied when the host knows the call (older builds do not). Runs until killed; prints a JSON line
 * of what it saw on SIGTERM.
 */
import { WebSocket } from 'ws'
import { createSocketClient, type SocketLike } from '../../renderer/bridge/socket-client'
import { createAppStore, type AppStore } from '../../renderer/state/app-store'

const [url, origin, kbPerMsArg] = process.argv.slice(2)
const kbPerMs = Number(kbPerMsArg ?? 10)
let raw: WebSocket | undefined
let connects = 0
const seen = { connects: 0, messages: 0, mib: 0, merged: 0, whole: 0 }
const client = createSocketClient({
  url: url!,
  connect: (u) => {
    raw = new WebSocket(u, { origin: origin! })
    seen.connects = ++connects
    // Busy while it applies what it read: nothing more is read until then.
    raw.on('message', (data: Buffer) => {
      seen.messages++
      seen.mib += data.length / 2 ** 20
      const socket = raw!
      socket.pause()
      setTimeout(() => socket.resume(), data.length / 1024 / kbPerMs)
    })
    return raw as unknown as SocketLike
  },
})
const api = client.api as unknown as Record<string, ((arg?: unknown) => unknown) | undefined>
const store = createAppStore(undefined, { frames: { request: (callback) => void setImmediate(callback), now: () => performance.now() } })
// Both absent in builds before flow control: the same page, measured before and after.
const newer = store as Partial<Pick<AppStore, 'onDidApply' | 'resyncSession'>>
newer.onDidApply?.((applied) => void api.sessionActionsApplied?.({ applied }))
const load = () => void client.api.getSnapshot(undefined).then((r) => r.ok && store.applySnapshot(r.value))
client.api.onSessionAdded(({ session }) => store.addSession(session))
api.onSessionState?.(((payload: { session: never }) => {
  seen.whole++
  newer.resyncSession?.(payload.session)
}) as never)
client.api.onSessionActions((batch) => {
  if ((batch as { fromSeq?: number }).fromSeq !== undefined) seen.merged++
  store.enqueueSessionActions(batch, load)
})
client.onDidRehydrate((snapshot) => store.applySnapshot(snapshot))
load()
process.on('SIGTERM', () => {
  process.stdout.write(JSON.stringify({ ...seen, mib: Math.round(seen.mib) }) + '\n')
  process.exit(0)
})

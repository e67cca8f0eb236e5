/**
 * Flow control end to end in the browser host: the real services and an agent that floods a session until its limit,
 * pages over real sockets that run the renderer's socket client and store. A page that reads slowly, and one that stops
 * reading for the whole flood, cost main a bounded number of bytes (counted on every event another page sees), and
 * each ends with exactly main's state of the session.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { createBosunServices } from '../../../main/app/create-services'
import type { BosunServices } from '../../../main/app/services'
import { startWebHost, type WebHost } from '../../../main/web/server'
import { createSocketClient, type SocketClient, type SocketLike } from '../../../renderer/bridge/socket-client'
import { createAppStore, type AppStore } from '../../../renderer/state/app-store'
import { WS_PATH } from '../../../common/wire'
import type { SessionState } from '../../../common/session/types'
import { hostileAgentCommand } from '../../agents/command'
import { createTestHome, type TestHome } from '../../support/bosun-home'

// The flood test pushes megabytes through a page that reads slowly: about 20 s on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 })

const FLOW = { maxInFlightBytes: 256 * 1024, maxHeldBytes: 1024 * 1024, maxMergedBytes: 64 * 1024 }
/** What main may hold for a page past the bounds: one batch (≤ 128 KiB) and a few small events. */
const SLACK = 256 * 1024

let host: WebHost | undefined
let home: TestHome | undefined
const clients: SocketClient[] = []

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose()
  await host?.dispose()
  home?.cleanup()
  host = undefined
  home = undefined
})

async function start(): Promise<{ host: WebHost; services: () => BosunServices }> {
  home = createTestHome([{ id: 'endless', name: 'Endless', scenario: 'basic', command: hostileAgentCommand('endless', { count: 1_000 }) }])
  let services: BosunServices | undefined
  host = await startWebHost({
    home: home.home,
    rendererDir: home.workspace,
    flow: FLOW,
    createServices: async (integration) => (services = await createBosunServices({ ...integration, limits: { maxSessionBytes: 12 * 1024 * 1024 } })),
  })
  return { host, services: () => services! }
}

/** A page: the renderer's socket client and store, applying what arrives when `apply` runs (or at once when `eager`). */
async function openPage(host: WebHost, options: { eager: boolean; onEvent?: () => void }) {
  let raw: WebSocket | undefined
  const client = createSocketClient({
    url: `ws://127.0.0.1:${host.port}${WS_PATH}?token=${host.token}`,
    connect: (url) => (raw = new WebSocket(url, { origin: host.origin })) as unknown as SocketLike,
  })
  clients.push(client)
  const { api } = client
  const store: AppStore = createAppStore(undefined, { frames: { request: () => undefined, now: () => 0 } })
  store.onDidApply((applied) => void api.sessionActionsApplied({ applied }))
  const reload = () => void api.getSnapshot(undefined).then((r) => r.ok && store.applySnapshot(r.value))
  api.onSessionAdded(({ session }) => store.addSession(session))
  const received = { merged: 0, whole: 0, largestWhole: 0 }
  api.onSessionState(({ session }) => {
    received.whole++
    received.largestWhole = Math.max(received.largestWhole, JSON.stringify({ type: 'event', name: 'sessionState', payload: { session } }).length)
    store.resyncSession(session)
  })
  api.onSessionActions((batch) => {
    if (batch.fromSeq !== undefined) received.merged++
    store.enqueueSessionActions(batch, reload)
    if (options.eager) store.flushQueued()
    options.onEvent?.()
  })
  const snapshot = await api.getSnapshot(undefined)
  if (!snapshot.ok) throw new Error(snapshot.error.message)
  store.applySnapshot(snapshot.value)
  return { api, store, received, socket: () => raw!, apply: () => store.flushQueued() }
}

const plain = (state: SessionState | undefined) => JSON.parse(JSON.stringify(state)) as unknown

it('holds a bounded number of bytes for a page that reads slowly or not at all while an agent floods, and both end with main\'s state', async () => {
  const { host, services } = await start()
  let maxSlow = 0
  let maxStalled = 0
  let samples = 0
  const sample = () => {
    const [stalled, slow] = host.views()
    samples++
    maxStalled = Math.max(maxStalled, stalled!.inFlight + stalled!.held + stalled!.buffered)
    maxSlow = Math.max(maxSlow, slow!.inFlight + slow!.held)
  }
  // Opened first, so views()[0]; it stops reading its socket before the flood starts.
  const stalled = await openPage(host, { eager: false })
  const slow = await openPage(host, { eager: false, onEvent: sample })
  // The fast page drives the session and sees every event the flood makes; the slow one applies what it got only at
  // every 4th of them (and says what it applied then).
  let seen = 0
  const driver = await openPage(host, {
    eager: true,
    onEvent: () => {
      sample()
      if (++seen % 4 === 0) slow.apply()
    },
  })
  const created = await driver.api.newSession({ agentId: 'endless', cwd: home!.workspace })
  if (!created.ok) throw new Error(created.error.message)
  const { sessionId } = created.value
  stalled.apply()
  stalled.socket().pause()
  const turn = await driver.api.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })
  expect(turn.ok).toBe(true)
  expect(samples).toBeGreaterThan(50)
  // A page that stopped reading costs main the bounds, whatever its socket would have taken.
  expect(maxStalled).toBeLessThanOrEqual(FLOW.maxInFlightBytes + FLOW.maxHeldBytes + SLACK)
  // Main's state, with everything the session was sent applied (12 MiB of the agent's text, and the notice at the limit).
  const main = plain(services().sessionState!(sessionId))
  expect((main as SessionState).cannotContinue).toBeTruthy()
  // The pages catch up: the stalled one reads again, and each applies what comes until it has main's state.
  stalled.socket().resume()
  for (const page of [slow, stalled]) {
    await expect.poll(() => (page.apply(), plain(page.store.getSnapshot().sessions[sessionId])), { timeout: 30_000 }).toEqual(main)
  }
  // The slow page got merged batches; the stalled one the session whole (it missed more than main holds).
  expect(slow.received.merged).toBeGreaterThan(0)
  expect(slow.received.whole).toBeLessThanOrEqual(4)
  expect(stalled.received.whole).toBe(1)
  // A slow page costs the bounds, and the session sent whole (on its way to the page, and held up to its size before it
  // is sent whole again).
  expect(maxSlow).toBeLessThanOrEqual(FLOW.maxInFlightBytes + FLOW.maxHeldBytes + SLACK + 2 * slow.received.largestWhole)
  // Nothing is left held for either.
  await expect.poll(() => host.views().map((v) => v.inFlight + v.held)).toEqual([0, 0, 0])
}, 120_000)

/**
 * The Electron path of URL elicitations, wired for real: `runElectronApp` (fake electron module) with the
 * real `createBosunServices` and the scripted agent as a child process (so these take seconds, not ms). Every call goes through the IPC
 * handlers as the window would make it. `shell.openExternal` (the fake records each call) must be reached
 * exactly once, after consent, and never for a refused URL or a request the person did not consent to.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', async () => (await import('../../electron/fake-electron')).electronModule)

import { createBosunServices } from '../../../main/app/create-services'
import { createMemoryLogger } from '../../../main/base/log'
import { runElectronApp, type ElectronApp } from '../../../main/shell/app'
import { callChannel, eventChannel, events, type CallName, type CallResult, type EventName } from '../../../common/contract'
import type { SessionAction } from '../../../common/session/types'
import { fake, invokeEvent, type FakeBrowserWindow } from '../../electron/fake-electron'
import { createTestHome, type TestHome } from '../../support/bosun-home'
import { RecordingSink } from '../../support/recording-sink'
import { must } from '../../support/must'

const scenario = 'elicit-url-electron'

let electronApp: ElectronApp | undefined
let testHome: TestHome | undefined

beforeEach(() => fake.reset())
afterEach(async () => {
  await electronApp?.services.dispose()
  electronApp = undefined
  testHome?.cleanup()
  testHome = undefined
})

async function start(v2: boolean) {
  testHome = createTestHome([{ id: 'scripted', name: 'Scripted', scenario, v2 }])
  // The definition was written outside Bosun: its first start asks in main's native dialog; the person confirms.
  fake.confirmDialogs()
  electronApp = await runElectronApp({ createServices: createBosunServices, env: { BOSUN_HOME: testHome.home }, log: createMemoryLogger() })
  if (!electronApp) throw new Error('the app did not start')
  const window = fake.windows[0] as FakeBrowserWindow
  // What main sends the window, recorded so the test can await an event (never a sleep).
  const sink = new RecordingSink()
  const names = new Map((Object.keys(events) as EventName[]).map((name) => [eventChannel(name), name]))
  const send = window.webContents.send.bind(window.webContents)
  window.webContents.send = (channel: string, ...args: unknown[]) => {
    send(channel, ...args)
    const name = names.get(channel)
    if (name) sink.emit(name, args[0] as never)
  }
  /** A call as the window's preload makes it: through `ipcMain.handle`, from the window's main frame. */
  const call = async <T = unknown>(name: CallName, arg?: unknown) =>
    (await fake.invoke(callChannel(name), invokeEvent(window.webContents), ...(arg === undefined ? [] : [arg]))) as CallResult<T>
  return { sink, call, workspace: testHome.workspace }
}

describe.each([
  { label: 'v1', v2: false },
  { label: 'v2', v2: true },
])('shell.openExternal through the composition root ($label agent)', { timeout: 30_000 }, ({ v2 }) => {
  it('a request-scoped URL during session/new is opened exactly once, only after consent', async () => {
    const { sink, call, workspace } = await start(v2)
    const creating = call<{ sessionId: string }>('newSession', { agentId: 'scripted', cwd: workspace })
    const added = await sink.next('requestScopedElicitation', (e) => e.change === 'added')
    const { elicitationRequestId } = added.elicitation
    expect(added.elicitation).toMatchObject({ mode: 'url', sessionId: null, agentName: 'Scripted', url: 'https://auth.example.com/device?code=42' })
    expect(fake.dialogs.map((d) => d.options.buttons)).toEqual([['Cancel', 'Start agent']])
    // Arrived and shown: nothing is opened before the person consents.
    expect(fake.openedExternally).toEqual([])

    // None of these is consent to this request's URL.
    expect(await call('openElicitationUrl', { elicitationRequestId: 'no-such-request' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(await call('respondElicitation', { elicitationRequestId, action: 'accept' })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(await call('openLink', { url: 'javascript:alert(1)', sessionId: 'scripted/none' })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(fake.openedExternally).toEqual([])

    // Open (the person consented in the dialog): main opens it once, through the chokepoint, and answers accept.
    expect(must(await call('openElicitationUrl', { elicitationRequestId }))).toEqual({ openedBy: 'main', href: 'https://auth.example.com/device?code=42' })
    expect(fake.openedExternally).toEqual(['https://auth.example.com/device?code=42'])
    expect(await call('openElicitationUrl', { elicitationRequestId })).toMatchObject({ ok: false })
    must(await creating)
    expect(fake.openedExternally).toEqual(['https://auth.example.com/device?code=42'])
    // Once session/new is answered, the link it was about (awaiting completion) has nothing left to wait for: withdrawn (G12).
    expect(sink.of('requestScopedElicitation').map((e) => e.elicitation.status)).toEqual(['pending', 'accepted', 'gone'])
  })

  it('a refused URL (javascript:), a declined and an unconsented request never reach it', async () => {
    const { sink, call, workspace } = await start(v2)
    // Declined: the request-scoped sign-in during session/new.
    const creating = call<{ sessionId: string }>('newSession', { agentId: 'scripted', cwd: workspace })
    const signIn = await sink.next('requestScopedElicitation', (e) => e.change === 'added')
    must(await call('respondElicitation', { elicitationRequestId: signIn.elicitation.elicitationRequestId, action: 'decline' }))
    const { sessionId } = must(await creating)
    expect(await call('openElicitationUrl', { elicitationRequestId: signIn.elicitation.elicitationRequestId })).toMatchObject({ ok: false, error: { kind: 'not-found' } })

    /** Sends the prompt; resolves with its turn and the URL elicitation it made once that reached the session. */
    const asked = async (prompt: string, message: string) => {
      const turn = call<{ stopReason: string | null }>('prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] })
      const requested = (a: SessionAction): a is Extract<SessionAction, { type: 'elicitation_requested' }> =>
        a.type === 'elicitation_requested' && a.elicitation.message === message
      const batch = await sink.next('sessionActions', (b) => b.actions.some(requested))
      const { elicitation } = batch.actions.find(requested)!
      return { turn, id: elicitation.elicitationRequestId, url: elicitation.url }
    }

    // Refused: consent is not enough for a javascript: URL; the chokepoint re-checks it.
    const js = await asked('url-js', 'Run this to finish')
    expect(js.url).toBe('javascript:alert(document.cookie)')
    expect(await call('openElicitationUrl', { elicitationRequestId: js.id })).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    must(await call('respondElicitation', { elicitationRequestId: js.id, action: 'decline' }))
    expect(must(await js.turn).stopReason).toBe('end_turn')

    // Unconsented: the session is cancelled while the request waits; afterwards it cannot be opened.
    const docs = await asked('url-unconsented', 'Read the setup guide')
    must(await call('cancel', { sessionId }))
    expect(must(await docs.turn).stopReason).toBe('cancelled')
    expect(await call('openElicitationUrl', { elicitationRequestId: docs.id })).toMatchObject({ ok: false, error: { kind: 'not-found' } })

    expect(fake.openedExternally).toEqual([])
  })
})

/**
 * The Electron path of URL elicitations, wired for real: `runElectronApp` (fake electron module) with the
 * real `createBosunServices` and the scripted agent as a child process (so these take seconds, not ms). Every call goes through the IPC
 * handlers as the window would make it. `shell.openExternal` (the fake records each call) must be reached
 * exactly once, after consent, and never for a refused URL or a request the person did not consent to.
 * Save image too: main writes the image its session holds through the native save dialog on the window.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

async function start(v2: boolean, agentScenario = scenario) {
  testHome = createTestHome([{ id: 'scripted', name: 'Scripted', scenario: agentScenario, v2 }])
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

describe('Save image in the Electron app', { timeout: 30_000 }, () => {
  /** A 20000 × 20000 PNG's signature and header: what the agent sends. */
  const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
  const ascii = (t: string) => [...t].map((c) => c.charCodeAt(0))
  const huge = Buffer.from([0x89, ...ascii('PNG\r\n\x1a\n'), ...be32(13), ...ascii('IHDR'), ...be32(20000), ...be32(20000), 8, 6, 0, 0, 0, 0, 0, 0, 0])

  it('writes the image the session holds where the person chose, in the save dialog on the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-save-image-'))
    const imageScenario = join(dir, 'image.json')
    const image = { type: 'image', mimeType: 'image/png', data: huge.toString('base64') }
    writeFileSync(imageScenario, JSON.stringify({ prompts: { default: [{ type: 'update', update: { sessionUpdate: 'agent_message_chunk', content: image } }] } }))
    const { call, workspace } = await start(false, imageScenario)
    const window = fake.windows[0] as FakeBrowserWindow
    try {
      const { sessionId } = must(await call<{ sessionId: string }>('newSession', { agentId: 'scripted', cwd: workspace }))
      must(await call('prompt', { sessionId, prompt: [{ type: 'text', text: 'draw' }] }))
      const sha256 = createHash('sha256').update(image.data).digest('hex')

      // Cancelled: nothing written, and no path.
      expect(must(await call('saveImage', { sessionId, sha256 }))).toEqual({ savedTo: null })
      const target = join(dir, 'chosen.png')
      fake.answerSaveDialog = () => target
      expect(must(await call('saveImage', { sessionId, sha256 }))).toEqual({ savedTo: target })
      expect(readFileSync(target).equals(huge)).toBe(true)
      expect(fake.saveDialogs.map((d) => [d.window === window, d.options.defaultPath])).toEqual([
        [true, join(fake.app.getPath('documents'), 'image-20000x20000.png')],
        [true, join(fake.app.getPath('documents'), 'image-20000x20000.png')],
      ])
      // An image the session does not hold: no dialog.
      expect(await call('saveImage', { sessionId, sha256: '0'.repeat(64) })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
      expect(fake.saveDialogs).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

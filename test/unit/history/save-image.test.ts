/**
 * Save image in the Electron app (`saveImage`): the page names an image of a session by the SHA-256 of its base64
 * data; main finds it in the session it holds (a message's or a tool call's), asks where in the save dialog and writes
 * the decoded bytes. The page never hands main bytes or a path: an image the session does not hold is `not-found`
 * and no dialog opens.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../main/base/log'
import { NullHistoryStore } from '../../../main/history/history-store'
import { createHistoryService, type HistorySessionsPort } from '../../../main/history/service'
import type { SaveFile } from '../../../main/app/services'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { RecordingSink } from '../../support/recording-sink'

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const ascii = (t: string) => [...t].map((c) => c.charCodeAt(0))
/** A PNG's signature and header only: it says `w` × `h`. */
const png = (w: number, h: number) => Buffer.from([0x89, ...ascii('PNG\r\n\x1a\n'), ...be32(13), ...ascii('IHDR'), ...be32(w), ...be32(h), 8, 6, 0, 0, 0, 0, 0, 0, 0])
const sha = (base64: string) => createHash('sha256').update(base64).digest('hex')

const huge = png(20000, 20000).toString('base64')
const fromTool = png(30000, 10).toString('base64')
const unreadable = Buffer.from('not an image, only text').toString('base64')
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')

const state = applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/w' }), [
  { type: 'local_prompt', content: [{ type: 'text', text: 'draw' }] },
  {
    type: 'updates',
    updates: [
      // Base64 as an agent may wrap it (line breaks): the page hashes it as the transcript shows it, without them.
      { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'image', mimeType: 'image/png', data: `${huge.slice(0, 20)}\n${huge.slice(20)}` } },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'image', mimeType: 'image/jpeg', data: unreadable } },
      { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'image', mimeType: 'image/svg+xml', data: svg } },
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', kind: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data: fromTool } }] },
    ],
  },
])

function setup(saveFile?: SaveFile) {
  const history = createHistoryService({ store: new NullHistoryStore(), events: new RecordingSink(), logger: createLogger('test', () => undefined), openProblem: null, ...(saveFile ? { saveFile } : {}) })
  history.bind({ has: (id: string) => id === 'a/s1', snapshot: () => undefined, state: (id: string) => (id === 'a/s1' ? state : undefined) } as unknown as HistorySessionsPort)
  return history
}

/** A save dialog that records what it was asked to write and answers `answer`. */
function dialog(answer: string | null | Error) {
  const asked: { name: string; bytes: string | Uint8Array; format: string }[] = []
  const saveFile: SaveFile = async (name, bytes, format) => {
    asked.push({ name, bytes, format })
    if (answer instanceof Error) throw answer
    return answer
  }
  return { asked, saveFile }
}

describe('saving an image Bosun does not show', () => {
  it('writes the decoded bytes of the session’s image, suggesting a name with its size', async () => {
    const { asked, saveFile } = dialog('/home/me/Pictures/big.png')
    const history = setup(saveFile)
    expect(await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(huge) })).toEqual({ ok: true, value: { savedTo: '/home/me/Pictures/big.png' } })
    expect(asked).toHaveLength(1)
    expect(asked[0]!.name).toBe('image-20000x20000.png')
    expect(asked[0]!.format).toBe('image')
    expect(Buffer.from(asked[0]!.bytes as Uint8Array).equals(png(20000, 20000))).toBe(true)
    history.dispose()
  })

  it('finds a tool call’s image, and one whose size cannot be read (named without a size)', async () => {
    const { asked, saveFile } = dialog('/x')
    const history = setup(saveFile)
    expect((await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(fromTool) })).ok).toBe(true)
    expect((await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(unreadable) })).ok).toBe(true)
    expect(asked.map((a) => a.name)).toEqual(['image-30000x10.png', 'image.jpg'])
    expect(Buffer.from(asked[1]!.bytes as Uint8Array).toString()).toBe('not an image, only text')
    history.dispose()
  })

  it('refuses an image the session does not hold, one of a type it does not draw, and an unknown session: no dialog', async () => {
    const { asked, saveFile } = dialog('/x')
    const history = setup(saveFile)
    const notHeld = await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(png(1, 1).toString('base64')) })
    const svgImage = await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(svg) })
    const otherSession = await history.handlers.saveImage({ sessionId: 'a/other', sha256: sha(huge) })
    for (const result of [notHeld, svgImage, otherSession]) expect(!result.ok && result.error.kind).toBe('not-found')
    expect(asked).toEqual([])
    history.dispose()
  })

  it('answers a cancelled dialog with no path, and a failed write with its reason', async () => {
    const cancelled = setup(dialog(null).saveFile)
    expect(await cancelled.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(huge) })).toEqual({ ok: true, value: { savedTo: null } })
    cancelled.dispose()
    const failing = setup(dialog(new Error('EACCES: permission denied')).saveFile)
    const failed = await failing.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(huge) })
    expect(!failed.ok && failed.error).toMatchObject({ kind: 'io-error', message: 'Saving the image failed: EACCES: permission denied' })
    failing.dispose()
  })

  it('is unsupported where main has no save dialog (the browser host: the page downloads the data)', async () => {
    const history = setup()
    const result = await history.handlers.saveImage({ sessionId: 'a/s1', sha256: sha(huge) })
    expect(!result.ok && result.error.kind).toBe('unsupported')
    history.dispose()
  })
})

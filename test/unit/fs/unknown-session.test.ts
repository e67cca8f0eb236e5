import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ClientRequestHandler } from '../../../main/acp/types'
import { FileSystemHandlers, READ_TEXT_FILE_METHOD, WRITE_TEXT_FILE_METHOD } from '../../../main/fs/file-system-handlers'

const folders: string[] = []
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The two methods as an agent calls them, on a session `s1` of agent `a` rooted in a fresh folder. */
function attached(): { dir: string; call(method: string, params: Record<string, unknown>): Promise<unknown> } {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-fs-'))
  folders.push(dir)
  writeFileSync(join(dir, 'a.txt'), 'hello\n')
  const handlers = new FileSystemHandlers({
    sessions: { getSession: (agentId, acpSessionId) => (agentId === 'a' && acpSessionId === 's1' ? { sessionId: 'bosun-s1', roots: [dir] } : undefined), toolCalls: () => [] },
    sink: () => undefined,
  })
  const registered = new Map<string, ClientRequestHandler>()
  handlers.attach({ handlers: { registerRequest: (method, handler) => (registered.set(method, handler), { dispose: () => undefined }), registerNotification: () => ({ dispose: () => undefined }) } }, { agentId: 'a', agentName: 'Agent' })
  const call = async (method: string, params: Record<string, unknown>) => registered.get(method)!(params, { protocolVersion: 1, requestId: 1, method, signal: new AbortController().signal })
  return { dir, call }
}

const refusal = (answer: Promise<unknown>) =>
  answer.then(
    () => {
      throw new Error('answered without an error')
    },
    (error: { code: number; data?: unknown }) => ({ code: error.code, data: error.data }),
  )

describe('fs/* naming an unknown session (G7)', () => {
  it('fs/read_text_file answers -32002 {sessionId}, whatever else the request says', async () => {
    const { dir, call } = attached()
    const notFound = { code: -32002, data: { sessionId: 'nope' } }
    expect(await refusal(call(READ_TEXT_FILE_METHOD, { sessionId: 'nope', path: join(dir, 'a.txt') }))).toEqual(notFound)
    expect(await refusal(call(READ_TEXT_FILE_METHOD, { sessionId: 'nope', path: 'relative.txt', line: -1 }))).toEqual(notFound)
    // The session known, the path is what is checked.
    expect(await call(READ_TEXT_FILE_METHOD, { sessionId: 's1', path: join(dir, 'a.txt') })).toEqual({ content: 'hello\n' })
    expect(await refusal(call(READ_TEXT_FILE_METHOD, { sessionId: 's1', path: 'relative.txt' }))).toMatchObject({ code: -32602 })
  })

  it('fs/write_text_file answers -32002 {sessionId} and writes nothing', async () => {
    const { dir, call } = attached()
    const notFound = { code: -32002, data: { sessionId: 'nope' } }
    expect(await refusal(call(WRITE_TEXT_FILE_METHOD, { sessionId: 'nope', path: join(dir, 'b.txt'), content: 'x' }))).toEqual(notFound)
    expect(await refusal(call(WRITE_TEXT_FILE_METHOD, { sessionId: 'nope', path: join(dir, 'b.txt') }))).toEqual(notFound)
    expect(readdirSync(dir)).toEqual(['a.txt'])
  })

  it('a sessionId that is not a string is still invalid params', async () => {
    const { call } = attached()
    expect(await refusal(call(READ_TEXT_FILE_METHOD, { sessionId: 7, path: '/x' }))).toMatchObject({ code: -32602 })
    expect(await refusal(call(WRITE_TEXT_FILE_METHOD, { path: '/x', content: '' }))).toMatchObject({ code: -32602 })
  })
})

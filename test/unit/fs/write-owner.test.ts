/**
 * Which tool call a `fs/write_text_file` belongs to: the one running when the agent asked, even when the agent reports
 * it ended while Bosun still writes (OpenCode 1.18.33 reports its edit of a 3,000-line file completed before Bosun's
 * write of it is answered: /tmp/agents11/opencode-rule.jsonl).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { ClientRequestHandler } from '../../../main/acp/types'
import { FileSystemHandlers, WRITE_TEXT_FILE_METHOD } from '../../../main/fs/file-system-handlers'
import type { SessionAction, ToolCallEntry } from '../../../common/session/types'

const folders: string[] = []
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * A session with one edit call of `a.txt`. `endsWhenWritten`: the agent's report that the call completed arrives once
 * the file on disk holds what the agent asked to write, that is, while Bosun's write is still being answered.
 */
function session(endsWhenWritten: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-fs-owner-'))
  folders.push(dir)
  const file = join(dir, 'a.txt')
  writeFileSync(file, 'one\ntwo\n')
  const agentContent = [{ type: 'content' as const, content: { type: 'text', text: 'Edit applied successfully.' } }]
  const call = (): ToolCallEntry => {
    const done = endsWhenWritten && readFileSync(file, 'utf8') === 'one\nTWO\n'
    return {
      kind: 'tool_call',
      id: 'tool:c1',
      toolCallId: 'c1',
      title: 'edit',
      toolKind: 'edit',
      status: done ? 'completed' : 'in_progress',
      content: done ? agentContent : [],
      locations: [{ path: file }],
      permissionIds: [],
      elicitationIds: [],
    }
  }
  const sunk: SessionAction[] = []
  const handlers = new FileSystemHandlers({
    sessions: { getSession: () => ({ sessionId: 'bosun-s1', roots: [dir] }), toolCalls: () => [call()] },
    sink: (_sessionId, action) => sunk.push(action),
  })
  const registered = new Map<string, ClientRequestHandler>()
  handlers.attach({ handlers: { registerRequest: (method, handler) => (registered.set(method, handler), { dispose: () => undefined }), registerNotification: () => ({ dispose: () => undefined }) } }, { agentId: 'a', agentName: 'OpenCode' })
  const write = () => registered.get(WRITE_TEXT_FILE_METHOD)!({ sessionId: 's1', path: file, content: 'one\nTWO\n' }, { protocolVersion: 1, requestId: 1, method: WRITE_TEXT_FILE_METHOD, signal: new AbortController().signal })
  return { file, sunk, write }
}

const written = (file: string) => [{ type: 'diff', path: file, oldText: 'one\ntwo\n', newText: 'one\nTWO\n' }]

it('a write whose call the agent reports ended meanwhile is kept with that call, not shown on a card of its own, and leaves its content alone', async () => {
  const s = session(true)
  expect(await s.write()).toEqual({})
  expect(s.sunk).toEqual([{ type: 'file_written', toolCallId: 'c1', writtenDiffs: written(s.file) }])
})

it('a write during a call that still runs is added to what it shows, and kept apart too', async () => {
  const s = session(false)
  expect(await s.write()).toEqual({})
  expect(s.sunk).toEqual([
    { type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: written(s.file) }] },
    { type: 'file_written', toolCallId: 'c1', writtenDiffs: written(s.file) },
  ])
})

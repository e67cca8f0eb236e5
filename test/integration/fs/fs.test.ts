/**
 * `fs/read_text_file` / `fs/write_text_file` through the composition root with the scripted v1 agent as a
 * real child: confinement to the session's folder (`..`, symlinks out, relative paths), line windows, binary,
 * huge and special files, atomic writes (mode, CRLF, read-only) and the diff on the tool card.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionState, ToolCallEntry } from '../../../common/session/types'
import { must, servicesPerTest, type TestServices } from '../../support/services'
import { clientReports } from '../../support/client-reports'

const startServices = servicesPerTest()
const outsideDirs: string[] = []
afterEach(() => {
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

interface FsSession {
  t: TestServices
  sessionId: string
  /** Runs the prompt and returns the agent's `client response (…)` reports of that turn, parsed. */
  run(text: string): Promise<unknown[]>
  state(): Promise<SessionState>
}

async function start(scenario = 'fs'): Promise<FsSession> {
  const t = await startServices([{ id: 'fs', name: 'Files agent', scenario }])
  writeFileSync(join(t.workspace, 'a.txt'), 'one\ntwo\nthree\n')
  const { sessionId } = must(await t.handlers.newSession({ agentId: 'fs', cwd: t.workspace }))
  const state = async () => must(await t.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  let seen = 0
  const run = async (text: string) => {
    must(await t.handlers.prompt({ sessionId, prompt: [{ type: 'text', text }] }))
    const reports = clientReports(await state())
    const fresh = reports.slice(seen)
    seen = reports.length
    return fresh
  }
  return { t, sessionId, run, state }
}

function outsideDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-outside-'))
  outsideDirs.push(dir)
  writeFileSync(join(dir, 'secret.txt'), 'top secret\n')
  return dir
}

const errorOf = (response: unknown) => (response as { error?: { code: number; message: string; data?: { reason?: string } } }).error

describe('fs/* with the scripted v1 agent', () => {
  it('reads a file inside the session folder, and honours line and limit as exact substrings', async () => {
    const s = await start()
    expect(await s.run('read')).toEqual([{ content: 'one\ntwo\nthree\n' }])
    const [window, first2, third, past, fractional] = await s.run('read-window')
    expect(window).toEqual({ content: 'two\n' })
    expect(first2).toEqual({ content: 'one\ntwo\n' })
    expect(third).toEqual({ content: 'three\n' })
    expect(past).toEqual({ content: '' })
    expect(errorOf(fractional)?.code).toBe(-32602)
  })

  it('refuses `..` out of the folder and relative paths, and says so in the session', async () => {
    const s = await start()
    const [dotdot] = await s.run('read-dotdot')
    expect(errorOf(dotdot)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
    expect(JSON.stringify(dotdot)).not.toContain('root:')
    const [relative] = await s.run('read-relative')
    expect(errorOf(relative)).toMatchObject({ code: -32602, data: { reason: 'not-absolute' } })
    const notices = (await s.state()).notices
    expect(notices.some((n) => n.severity === 'warning' && n.title.includes('Refused to let Files agent read') && n.title.includes('etc/passwd'))).toBe(true)
  })

  it('refuses reads and writes through a symlink that leads out of the folder', async () => {
    const s = await start()
    const outside = outsideDir()
    symlinkSync(outside, join(s.t.workspace, 'link'))
    const [read] = await s.run('read-symlink')
    expect(errorOf(read)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
    expect(JSON.stringify(read)).not.toContain('top secret')
    const [write] = await s.run('write-symlink')
    expect(errorOf(write)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
    const [dotdot] = await s.run('write-dotdot')
    expect(errorOf(dotdot)?.data?.reason).toBe('outside-roots')
    expect(existsSync('/tmp/bosun-fs-escape-test.txt')).toBe(false)
  })

  it('follows a symlink that stays inside the folder', async () => {
    const s = await start()
    mkdirSync(join(s.t.workspace, 'real'))
    writeFileSync(join(s.t.workspace, 'real', 'secret.txt'), 'inside\n')
    symlinkSync(join(s.t.workspace, 'real'), join(s.t.workspace, 'link'))
    expect(await s.run('read-symlink')).toEqual([{ content: 'inside\n' }])
  })

  it('answers Gemini CLI (agentInfo gemini-cli) a missing file in the folder as an empty file, so it can create one; outside the folder it is still refused', async () => {
    const s = await start('fs-gemini')
    expect(await s.run('read-missing')).toEqual([{ content: '' }])
    expect(await s.run('read')).toEqual([{ content: 'one\ntwo\nthree\n' }])
    const [outside] = await s.run('read-outside-missing')
    expect(errorOf(outside)).toMatchObject({ code: -32602, data: { reason: 'outside-roots' } })
  })

  it('answers a missing file with -32002, and refuses binary, huge and special files with a reason', async () => {
    const s = await start()
    writeFileSync(join(s.t.workspace, 'bin.dat'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]))
    // Sparse: 11 MiB on paper, nothing on disk.
    writeFileSync(join(s.t.workspace, 'huge.txt'), '')
    truncateSync(join(s.t.workspace, 'huge.txt'), 11 * 1024 * 1024)
    execFileSync('mkfifo', [join(s.t.workspace, 'pipe')])
    const [missing] = await s.run('read-missing')
    expect(errorOf(missing)).toMatchObject({ code: -32002, data: { uri: join(s.t.workspace, 'missing.txt') } })
    const [binary] = await s.run('read-binary')
    expect(errorOf(binary)).toMatchObject({ code: -32602, data: { reason: 'binary' } })
    const [huge] = await s.run('read-huge')
    expect(errorOf(huge)).toMatchObject({ code: -32602, data: { reason: 'too-large' } })
    expect(errorOf(huge)?.message).toContain('11 MiB')
    const [fifo] = await s.run('read-fifo')
    expect(errorOf(fifo)).toMatchObject({ code: -32602, data: { reason: 'not-a-file' } })
    // A text write never replaces a binary file.
    const [overBinary] = await s.run('write-binary')
    expect(errorOf(overBinary)?.data?.reason).toBe('binary')
    expect(readFileSync(join(s.t.workspace, 'bin.dat'))[0]).toBe(0x89)
    const notices = (await s.state()).notices.map((n) => n.title)
    expect(notices).toEqual(expect.arrayContaining([expect.stringContaining('could not read'), expect.stringContaining('could not write')]))
  })

  it('creates a new file (and its folder) and shows the write as a diff on a card of its own', async () => {
    const s = await start()
    expect(await s.run('write')).toEqual([{}])
    expect(readFileSync(join(s.t.workspace, 'src', 'new.ts'), 'utf8')).toBe('export const x = 1\n')
    const card = (await s.state()).entries.find((e): e is ToolCallEntry => e.kind === 'tool_call')
    expect(card).toMatchObject({ toolKind: 'edit', status: 'completed', title: `Created ${join(s.t.workspace, 'src', 'new.ts')}` })
    expect(card!.content).toEqual([{ type: 'diff', path: join(s.t.workspace, 'src', 'new.ts'), oldText: null, newText: 'export const x = 1\n' }])
  })

  it('puts the diff on the running edit tool call the write belongs to', async () => {
    const s = await start()
    expect(await s.run('write-in-tool')).toEqual([{}])
    const tools = (await s.state()).entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call')
    expect(tools).toHaveLength(1)
    expect(tools[0]).toMatchObject({ toolCallId: 'call-edit', status: 'completed' })
    expect(tools[0]!.content).toEqual([{ type: 'diff', path: join(s.t.workspace, 'a.txt'), oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n' }])
  })

  it('keeps what it wrote for a tool call apart, so the agent replacing the content does not take it off the card (OpenCode)', async () => {
    const s = await start()
    expect(await s.run('write-then-replace')).toEqual([{}])
    const [tool] = (await s.state()).entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call')
    expect(tool!.content).toEqual([{ type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }])
    expect(tool!.writtenDiffs).toEqual([{ type: 'diff', path: join(s.t.workspace, 'a.txt'), oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n' }])
  })

  it('shows on the running read call which lines of which file Bosun read for it, not their text', async () => {
    const s = await start()
    expect(await s.run('read-in-calls')).toEqual([{ content: 'two\n' }, { content: 'two\n' }, { content: 'one\ntwo\nthree\n' }])
    const tools = (await s.state()).entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call')
    const path = join(s.t.workspace, 'a.txt')
    expect(tools.find((t) => t.toolCallId === 'call-read')!.filesRead).toEqual([
      { path, line: 2, limit: 1, lines: 1, times: 2 },
      { path, line: null, limit: null, lines: 3, times: 1 },
    ])
    expect(tools.find((t) => t.toolCallId === 'call-other')!.filesRead).toBeUndefined()
    expect(JSON.stringify(tools)).not.toContain('three\\n')
  })

  it('writes atomically, keeping the mode and CRLF line endings, and refuses read-only files', async () => {
    const s = await start()
    writeFileSync(join(s.t.workspace, 'run.sh'), '#!/bin/sh\necho old\n')
    chmodSync(join(s.t.workspace, 'run.sh'), 0o750)
    writeFileSync(join(s.t.workspace, 'crlf.txt'), 'a\r\nb\r\n')
    writeFileSync(join(s.t.workspace, 'ro.txt'), 'original\n')
    chmodSync(join(s.t.workspace, 'ro.txt'), 0o444)
    expect(await s.run('write-mode')).toEqual([{}])
    expect(statSync(join(s.t.workspace, 'run.sh')).mode & 0o777).toBe(0o750)
    expect(await s.run('write-crlf')).toEqual([{}])
    expect(readFileSync(join(s.t.workspace, 'crlf.txt'), 'utf8')).toBe('x\r\ny\r\n')
    const [readonly] = await s.run('write-readonly')
    // Refused as root too (root passes access(W_OK) for every file): a file without a write bit is read-only.
    expect(errorOf(readonly)?.data?.reason).toBe('not-writable')
    expect(readFileSync(join(s.t.workspace, 'ro.txt'), 'utf8')).toBe('original\n')
    // No temp files left behind.
    expect(execFileSync('ls', ['-A', s.t.workspace], { encoding: 'utf8' })).not.toContain('.tmp')
  })
})

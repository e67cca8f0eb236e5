/**
 * `openLocation` in main: only a file a tool call of that session names, confined to that session's folders
 * like the agent's own file requests (symlinks, `..`), a regular file that cannot run as a program, and only
 * through the host's shell (a recording `openPath`, as Electron's `shell.openPath` answers); the browser host says it cannot.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocationsService, locationPathsOf, OPEN_BURST, OPEN_REFILL_MS, type LocationsDeps } from '../../../main/locations/service'
import type { Entry } from '../../../common/session/types'

const dirs: string[] = []
let root: string
let outside: string
/** The host's shell as `shell.openPath` behaves: records the path, answers `''` (opened). The Electron wiring itself is covered by test/unit/shell/compromised-renderer.test.ts. */
const fake = { openedPaths: [] as string[] }
const openPath = (path: string) => {
  fake.openedPaths.push(path)
  return Promise.resolve('')
}
beforeEach(() => {
  fake.openedPaths = []
  root = temp()
  outside = temp()
  writeFileSync(join(root, 'a.ts'), 'export const a = 1\n')
  mkdirSync(join(root, 'src'))
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n')
})
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function temp(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-locations-')))
  dirs.push(dir)
  return dir
}

/** Two sessions of two agents: `a/s-1` in `root` (and the folders added to it), `b/s-1` in `outside`. */
function service(named: string[], options: Partial<LocationsDeps> & { added?: string[]; otherNamed?: string[] } = {}) {
  const sessions: Record<string, { roots: string[]; paths: string[] }> = {
    'a/s-1': { roots: [root, ...(options.added ?? [])], paths: named },
    'b/s-1': { roots: [outside], paths: options.otherNamed ?? [] },
  }
  return createLocationsService({
    session: (id) => {
      const s = sessions[id]
      return s ? { roots: s.roots, locationPaths: () => s.paths } : undefined
    },
    openPath,
    platform: 'linux',
    ...options,
  }).handlers
}

const reasonOf = (result: { ok: boolean; error?: { kind: string; data?: unknown } }) =>
  result.ok ? 'ok' : ((result.error?.data as { reason?: string } | undefined)?.reason ?? result.error?.kind)

describe('openLocation', () => {
  it('opens a file inside the session’s folder that a tool call named (the real path, whatever the line)', async () => {
    const path = join(root, 'a.ts')
    const handlers = service([path])
    expect(await handlers.openLocation({ sessionId: 'a/s-1', path, line: 12 })).toEqual({ ok: true, value: { path } })
    expect(fake.openedPaths).toEqual([path])
  })

  it('opens files in a folder the person added to the session', async () => {
    const added = temp()
    writeFileSync(join(added, 'lib.ts'), 'x\n')
    const handlers = service([join(added, 'lib.ts')], { added: [added] })
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path: join(added, 'lib.ts') }))).toBe('ok')
    expect(fake.openedPaths).toEqual([join(added, 'lib.ts')])
  })

  it('refuses a file outside the session’s folders, even when a tool call named it', async () => {
    const path = join(outside, 'secret.txt')
    const result = await service([path]).openLocation({ sessionId: 'a/s-1', path })
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { reason: 'outside-roots' } } })
    expect(result.ok ? '' : result.error.message).toContain('outside the session')
    expect(fake.openedPaths).toEqual([])
  })

  it('refuses a symlink inside the folder that leads outside it', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'innocent.txt'))
    symlinkSync(outside, join(root, 'docs'))
    const handlers = service([join(root, 'innocent.txt'), join(root, 'docs', 'secret.txt')])
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path: join(root, 'innocent.txt') }))).toBe('outside-roots')
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path: join(root, 'docs', 'secret.txt') }))).toBe('outside-roots')
    expect(fake.openedPaths).toEqual([])
  })

  it('refuses `..` out of the folder', async () => {
    const path = `${root}/src/../../${outside.split('/').pop()!}/secret.txt`
    expect(reasonOf(await service([path]).openLocation({ sessionId: 'a/s-1', path }))).toBe('outside-roots')
    expect(fake.openedPaths).toEqual([])
  })

  it('refuses a folder, a missing file and a FIFO', async () => {
    const folder = join(root, 'src')
    const missing = join(root, 'gone.ts')
    const fifo = join(root, 'pipe')
    execFileSync('mkfifo', [fifo])
    const handlers = service([folder, missing, fifo])
    const notAFile = await handlers.openLocation({ sessionId: 'a/s-1', path: folder })
    expect(notAFile).toMatchObject({ ok: false, error: { kind: 'invalid-argument', data: { reason: 'not-a-file' } } })
    expect(await handlers.openLocation({ sessionId: 'a/s-1', path: missing })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path: fifo }))).toBe('not-a-file')
    expect(fake.openedPaths).toEqual([])
  })

  it('refuses what would run as a program: the executable bit, and the platform’s launchers', async () => {
    writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n')
    chmodSync(join(root, 'run.sh'), 0o755)
    writeFileSync(join(root, 'app.desktop'), '[Desktop Entry]\nExec=sh\n')
    writeFileSync(join(root, 'build.bat'), '@echo off\n')
    const named = [join(root, 'run.sh'), join(root, 'app.desktop'), join(root, 'build.bat')]
    const linux = service(named)
    expect(reasonOf(await linux.openLocation({ sessionId: 'a/s-1', path: join(root, 'run.sh') }))).toBe('not-openable')
    expect(reasonOf(await linux.openLocation({ sessionId: 'a/s-1', path: join(root, 'app.desktop') }))).toBe('not-openable')
    const windows = service(named, { platform: 'win32' })
    expect(reasonOf(await windows.openLocation({ sessionId: 'a/s-1', path: join(root, 'build.bat') }))).toBe('not-openable')
    expect(fake.openedPaths).toEqual([])
    // The same `.bat` on Linux is a text file to open.
    expect(reasonOf(await linux.openLocation({ sessionId: 'a/s-1', path: join(root, 'build.bat') }))).toBe('ok')
  })

  it('refuses another agent’s session, an unknown session, and a path no tool call of the session named', async () => {
    const path = join(root, 'a.ts')
    // Session b/s-1 never named it; named there, it is still outside that session's folder.
    expect(reasonOf(await service([path]).openLocation({ sessionId: 'b/s-1', path }))).toBe('not-a-location')
    expect(reasonOf(await service([path], { otherNamed: [path] }).openLocation({ sessionId: 'b/s-1', path }))).toBe('outside-roots')
    expect(await service([path]).openLocation({ sessionId: 'c/s-9', path })).toMatchObject({ ok: false, error: { kind: 'not-found' } })
    expect(reasonOf(await service([]).openLocation({ sessionId: 'a/s-1', path }))).toBe('not-a-location')
    expect(fake.openedPaths).toEqual([])
  })

  it('without a shell (the browser host) says it cannot, and the shell’s own error is a value', async () => {
    const path = join(root, 'a.ts')
    const web = service([path], { openPath: undefined })
    expect(await web.openLocation({ sessionId: 'a/s-1', path })).toMatchObject({ ok: false, error: { kind: 'unsupported' } })
    const broken = service([path], { openPath: async () => 'No application knows this file type' })
    const result = await broken.openLocation({ sessionId: 'a/s-1', path })
    expect(result).toMatchObject({ ok: false, error: { kind: 'io-error' } })
    expect(result.ok ? '' : result.error.message).toContain('No application knows this file type')
  })
})

describe('locationPathsOf', () => {
  it('lists the paths of every tool call’s locations, newest first, and nothing else', () => {
    const tool = (id: string, paths: string[]) => ({ kind: 'tool_call', id, toolCallId: id, locations: paths.map((path) => ({ path })) }) as unknown as Entry
    const entries = [tool('1', ['/p/a']), { kind: 'agent_message', id: 'm', content: [{ type: 'text', text: '/p/x' }] } as unknown as Entry, tool('2', ['/p/b', '/p/c'])]
    expect([...locationPathsOf(entries)]).toEqual(['/p/b', '/p/c', '/p/a'])
  })
})

describe('openLocation, how often', () => {
  it('opens a burst of files, then one more per refill interval; a refused open never reaches the shell', async () => {
    let clock = 5_000
    const path = join(root, 'a.ts')
    const handlers = service([path], { now: () => clock })
    for (let i = 0; i < OPEN_BURST; i++) expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path }))).toBe('ok')
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path }))).toBe('busy')
    expect(fake.openedPaths).toHaveLength(OPEN_BURST)
    clock += OPEN_REFILL_MS
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path }))).toBe('ok')
    expect(reasonOf(await handlers.openLocation({ sessionId: 'a/s-1', path }))).toBe('busy')
    expect(fake.openedPaths).toHaveLength(OPEN_BURST + 1)
  })
})

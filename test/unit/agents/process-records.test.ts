/**
 * The agents' process-group records (`run/agent-groups/<pgid>.json` in Bosun's home) with something else at their
 * names: a folder, a file too large to be a record, a link, JSON that is not a record. Bosun starts, leaves what it did
 * not write where it is (never reading a link's target, never removing a file it could not use), and says so.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openProcessRecords } from '../../../main/agents/process-records'
import { createMemoryLogger } from '../../../main/base/log'

let home: string
let groups: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bosun-records-'))
  groups = join(home, 'run', 'agent-groups')
  mkdirSync(groups, { recursive: true })
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

/** A record as a run that died wrote it, for a group no process belongs to any more. */
const deadRecord = (pgid: number) => JSON.stringify({ pgid, startTime: 1, bosunPid: 1, recordedAt: '2026-01-01T00:00:00.000Z' }) + '\n'
/** No /proc to look in: nothing is alive, nothing is killed. */
const noProcesses = () => ({ procRoot: join(home, 'no-proc'), kill: () => undefined })

it('starts past a folder, a 100 MB file, a link and a JSON null at a record’s name: the first three are left and named, the null removed', () => {
  mkdirSync(join(groups, '100.json'))
  writeFileSync(join(groups, '101.json'), '')
  truncateSync(join(groups, '101.json'), 100 * 1024 * 1024)
  const outside = join(home, 'outside.json')
  writeFileSync(outside, deadRecord(102))
  symlinkSync(outside, join(groups, '102.json'))
  writeFileSync(join(groups, '103.json'), 'null\n')
  writeFileSync(join(groups, '104.json'), deadRecord(104))
  const logger = createMemoryLogger()

  const records = openProcessRecords(home, logger, noProcesses())

  expect(records.reaped.groups).toBe(1)
  expect(readdirSync(groups).sort()).toEqual(['100.json', '101.json', '102.json'])
  expect(lstatSync(join(groups, '101.json')).size).toBe(100 * 1024 * 1024)
  expect(lstatSync(join(groups, '102.json')).isSymbolicLink()).toBe(true)
  expect(readFileSync(outside, 'utf8')).toBe(deadRecord(102))
  const warned = logger.lines.filter((line) => line.includes('is not a record Bosun wrote'))
  expect(warned.map((line) => line.replace(/^.*agent-groups\//, ''))).toEqual([
    '100.json is not a record Bosun wrote (a folder); it is left as it is',
    '101.json is not a record Bosun wrote (104857600 bytes, larger than any record); it is left as it is',
    '102.json is not a record Bosun wrote (a symbolic link); it is left as it is',
  ])
})

it.skipIf(process.platform === 'win32')('starts past a FIFO at a record’s name without waiting for a writer', () => {
  execFileSync('mkfifo', [join(groups, '200.json')])
  const logger = createMemoryLogger()
  openProcessRecords(home, logger, noProcesses())
  expect(logger.lines.some((line) => line.includes('200.json is not a record Bosun wrote (not a regular file)'))).toBe(true)
  expect(lstatSync(join(groups, '200.json')).isFIFO()).toBe(true)
})

it('records a group over a link at its name without writing through it to the file it names', () => {
  const outside = join(home, 'precious.txt')
  writeFileSync(outside, 'keep me\n')
  const pgid = 4242
  const records = openProcessRecords(home, createMemoryLogger(), { platform: 'darwin' })
  // Made while Bosun runs, before the agent of that group starts.
  symlinkSync(outside, join(groups, `${pgid}.json`))
  records.add(pgid)
  expect(readFileSync(outside, 'utf8')).toBe('keep me\n')
  expect(lstatSync(join(groups, `${pgid}.json`)).isFile()).toBe(true)
  expect(JSON.parse(readFileSync(join(groups, `${pgid}.json`), 'utf8'))).toMatchObject({ pgid })
  expect(readdirSync(groups)).toEqual([`${pgid}.json`])
  records.remove(pgid)
  expect(readdirSync(groups)).toEqual([])
})

/** A fake /proc: each process's stat (state S, its group, its start time) and environment. */
function fakeProc(processes: { pid: number; pgrp: number; start: number; environ: string }[]): string {
  const root = join(home, 'proc')
  for (const p of processes) {
    mkdirSync(join(root, String(p.pid)), { recursive: true })
    const fields = ['S', '1', String(p.pgrp), ...Array.from({ length: 16 }, () => '0'), String(p.start)]
    writeFileSync(join(root, String(p.pid), 'stat'), `${p.pid} (sh) ${fields.join(' ')}\n`)
    writeFileSync(join(root, String(p.pid), 'environ'), p.environ)
  }
  return root
}

it.runIf(process.platform === 'linux')('reaps what left a recorded group but carries its run tag, started after its leader, and nothing else', () => {
  const tag = 'a'.repeat(32)
  writeFileSync(join(groups, '300.json'), JSON.stringify({ pgid: 300, startTime: 100, bosunPid: 1, recordedAt: '2026-01-01T00:00:00.000Z', tag }) + '\n')
  // Not a tag Bosun makes: nothing is looked for by it.
  writeFileSync(join(groups, '400.json'), JSON.stringify({ pgid: 400, startTime: 100, bosunPid: 1, recordedAt: '2026-01-01T00:00:00.000Z', tag: 'PATH=/bin' }) + '\n')
  const procRoot = fakeProc([
    { pid: 310, pgrp: 310, start: 150, environ: `BOSUN_AGENT_RUN=${tag}\0` },
    // Older than the group's leader: not of this run, whatever its environment says.
    { pid: 311, pgrp: 311, start: 50, environ: `BOSUN_AGENT_RUN=${tag}\0` },
    { pid: 312, pgrp: 312, start: 150, environ: 'PATH=/bin\0' },
    { pid: 410, pgrp: 410, start: 150, environ: 'PATH=/bin\0' },
  ])
  const killed: [number, string][] = []
  const records = openProcessRecords(home, undefined, { platform: 'linux', procRoot, kill: (pid, signal) => void killed.push([pid, signal]) })
  expect(killed).toEqual([[310, 'SIGKILL']])
  expect(records.reaped).toMatchObject({ groups: 2, killed: 1 })
})

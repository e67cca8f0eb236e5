/**
 * Every agent runs in its own process group. If Bosun itself dies without stopping them (SIGKILL, power
 * loss), their grandchildren survive. So each group is recorded in the home (`run/agent-groups/<pgid>.json`,
 * with the leader's start time) and removed when the agent exits; the next Bosun on that home (the home
 * lock says no other one runs) kills what is left of each recorded group, after checking that the group
 * is still the one recorded: a live leader must have the recorded start time, and every member must have
 * started after it (a pgid is never reused while its group has members).
 *
 * Linux reads `/proc`; elsewhere records are kept but nothing is reaped (no cheap way to verify a group).
 * A process that left its group (`setsid`, `setpgid`, a daemon) is found by the agent run's tag in its environment,
 * kept in the record too (run-tag.ts), as at the agent's exit; one that also emptied its environment escapes.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../base/log'
import { readAtMostSync } from '../base/read-at-most'
import { writeFileAtomicSync } from '../base/atomic-write'
import { isRunTag, procPids, processesTagged } from './run-tag'

export interface ProcessGroupRecords {
  /** A new agent process group (led by `pgid`), whose processes carry the run tag `tag` (run-tag.ts) when given. */
  add(pgid: number, tag?: string): void
  /** The group was swept (the agent exited and Bosun signalled what was left). */
  remove(pgid: number): void
}

interface GroupRecord {
  pgid: number
  /** The leader's start time (clock ticks since boot, `/proc/<pid>/stat` field 22); null when unknown. */
  startTime: number | null
  bosunPid: number
  recordedAt: string
  /** The agent run's tag: what left the group but carries it is reaped too. */
  tag?: string
}

export interface ReapReport {
  /** Groups recorded by the previous run. */
  groups: number
  /** Processes killed. */
  killed: number
  /** Groups left alone because they are not the recorded ones any more. */
  skipped: number
}

export interface ProcessRecordsOptions {
  /** Injected for tests. */
  platform?: NodeJS.Platform
  procRoot?: string
  kill?: (pid: number, signal: NodeJS.Signals) => void
}

/**
 * Opens the records of `home`: reaps what a previous run left (call only while holding the home lock),
 * then records this run's groups.
 */
export function openProcessRecords(home: string, logger?: Logger, options: ProcessRecordsOptions = {}): ProcessGroupRecords & { reaped: ReapReport } {
  const dir = join(home, 'run', 'agent-groups')
  const platform = options.platform ?? process.platform
  const procRoot = options.procRoot ?? '/proc'
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal))
  const reaped = reapLeftovers(dir, platform, procRoot, kill, logger)
  const file = (pgid: number) => join(dir, `${pgid}.json`)
  return {
    reaped,
    add(pgid, tag) {
      const record: GroupRecord = {
        pgid,
        startTime: platform === 'linux' ? readStat(procRoot, pgid)?.startTime ?? null : null,
        bosunPid: process.pid,
        recordedAt: new Date().toISOString(),
        ...(tag !== undefined ? { tag } : {}),
      }
      // Written aside and renamed into place: whatever is at the record's name (a FIFO, which a write would wait on for
      // ever, or a link, which it would follow to a file elsewhere) is replaced, never opened.
      try {
        mkdirSync(dir, { recursive: true })
        writeFileAtomicSync(file(pgid), JSON.stringify(record) + '\n')
      } catch (error) {
        logger?.warn(`cannot record agent process group ${pgid}`, error)
      }
    },
    remove(pgid) {
      removeRecord(file(pgid), logger)
    },
  }
}

function reapLeftovers(dir: string, platform: NodeJS.Platform, procRoot: string, kill: (pid: number, signal: NodeJS.Signals) => void, logger?: Logger): ReapReport {
  const report: ReapReport = { groups: 0, killed: 0, skipped: 0 }
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'))
  } catch {
    return report
  }
  if (names.length > MAX_RECORDS) logger?.warn(`${dir} holds ${names.length} records; only the first ${MAX_RECORDS} are looked at (Bosun writes one for each agent running)`)
  const processes = platform === 'linux' ? listProcesses(procRoot) : []
  for (const name of names.slice(0, MAX_RECORDS)) {
    const path = join(dir, name)
    const read = readRecord(path)
    if (read.kind === 'foreign') {
      logger?.warn(`${path} is not a record Bosun wrote (${read.why}); it is left as it is`)
      continue
    }
    removeRecord(path, logger)
    const record = read.record
    if (!isRecord(record) || !Number.isInteger(record.pgid) || record.pgid <= 1 || record.bosunPid === process.pid) continue
    report.groups++
    if (platform !== 'linux' || record.startTime === null) continue
    const leader = processes.find((p) => p.pid === record.pgid)
    if (leader && leader.startTime !== record.startTime) {
      report.skipped++
      continue
    }
    const members = processes.filter((p) => p.pgrp === record.pgid && p.startTime >= record.startTime! && p.state !== 'Z')
    if (members.length > 0) {
      try {
        kill(-record.pgid, 'SIGKILL')
        report.killed += members.length
      } catch (error) {
        logger?.warn(`cannot reap agent process group ${record.pgid}`, error)
      }
    }
    // What left the group but carries the run's tag (started after the leader: a tag is never given twice).
    if (!isRunTag(record.tag)) continue
    for (const pid of processesTagged(record.tag, procRoot, platform)) {
      const member = processes.find((p) => p.pid === pid)
      if (!member || member.startTime < record.startTime || member.state === 'Z') continue
      try {
        kill(pid, 'SIGKILL')
        report.killed++
      } catch (error) {
        logger?.warn(`cannot reap process ${pid} of agent process group ${record.pgid}`, error)
      }
    }
  }
  if (report.groups > 0) logger?.info(`previous run left ${report.groups} agent process group(s): killed ${report.killed} process(es), left ${report.skipped} group(s) that changed`)
  return report
}

/** Records looked at on a start: far more agents than anyone runs at once. */
const MAX_RECORDS = 1_000
/** A record is one short line of JSON; a file larger than this is not one. */
const MAX_RECORD_BYTES = 4_096

/**
 * A record as Bosun wrote it (its JSON, or undefined when it is not JSON: removed as a record cut short), or something
 * else at its name, left alone: a folder, a link (to /dev/zero, read for ever, or a file elsewhere), a FIFO (opened for
 * reading, it waits for a writer, and main's thread with it), a device, or a file too large to be a record. Never throws.
 */
function readRecord(path: string): { kind: 'record'; record: unknown } | { kind: 'foreign'; why: string } {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { kind: 'foreign', why: code === 'ELOOP' ? 'a symbolic link' : code === 'EISDIR' ? 'a folder' : `it cannot be opened: ${code ?? String(error)}` }
  }
  try {
    const stat = fstatSync(fd)
    if (stat.isDirectory()) return { kind: 'foreign', why: 'a folder' }
    if (!stat.isFile()) return { kind: 'foreign', why: 'not a regular file' }
    if (stat.size > MAX_RECORD_BYTES) return { kind: 'foreign', why: `${stat.size} bytes, larger than any record` }
    const data = readAtMostSync(fd, MAX_RECORD_BYTES + 1)
    if (data.length > MAX_RECORD_BYTES) return { kind: 'foreign', why: 'larger than any record' }
    try {
      return { kind: 'record', record: JSON.parse(data.toString('utf8')) as unknown }
    } catch {
      return { kind: 'record', record: undefined }
    }
  } catch (error) {
    return { kind: 'foreign', why: `it cannot be read: ${(error as Error).message}` }
  } finally {
    closeSync(fd)
  }
}

/** A home that refuses the removal (read-only, a folder made so) is said, not thrown: Bosun starts and runs on. */
function removeRecord(path: string, logger: Logger | undefined): void {
  try {
    rmSync(path, { force: true })
  } catch (error) {
    logger?.warn(`cannot remove ${path}`, error)
  }
}

function isRecord(value: unknown): value is GroupRecord {
  return typeof value === 'object' && value !== null
}

interface ProcStat {
  pid: number
  state: string
  pgrp: number
  startTime: number
}

function readStat(procRoot: string, pid: number): ProcStat | null {
  try {
    const text = readFileSync(join(procRoot, String(pid), 'stat'), 'utf8')
    // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { pid, state: rest[0]!, pgrp: Number(rest[2]), startTime: Number(rest[19]) }
  } catch {
    return null
  }
}

function listProcesses(procRoot: string): ProcStat[] {
  const out: ProcStat[] = []
  for (const pid of procPids(procRoot)) {
    const stat = readStat(procRoot, pid)
    if (stat) out.push(stat)
  }
  return out
}

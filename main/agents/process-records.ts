/**
 * Every agent runs in its own process group. If Bosun itself dies without stopping them (SIGKILL, power
 * loss), their grandchildren survive. So each group is recorded in the home (`run/agent-groups/<pgid>.json`,
 * with the leader's start time) and removed when the agent exits; the next Bosun on that home (the home
 * lock says no other one runs) kills what is left of each recorded group, after checking that the group
 * is still the one recorded: a live leader must have the recorded start time, and every member must have
 * started after it (a pgid is never reused while its group has members).
 *
 * Linux reads `/proc`; elsewhere records are kept but nothing is reaped (no cheap way to verify a group).
 * A process that leaves its group (`setsid`, `setpgid`, a daemon) escapes this, as it escapes Stop.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../base/log'

export interface ProcessGroupRecords {
  /** A new agent process group (led by `pgid`). */
  add(pgid: number): void
  /** The group was swept (the agent exited and Bosun signalled what was left). */
  remove(pgid: number): void
}

interface GroupRecord {
  pgid: number
  /** The leader's start time (clock ticks since boot, `/proc/<pid>/stat` field 22); null when unknown. */
  startTime: number | null
  bosunPid: number
  recordedAt: string
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
    add(pgid) {
      const record: GroupRecord = { pgid, startTime: platform === 'linux' ? readStat(procRoot, pgid)?.startTime ?? null : null, bosunPid: process.pid, recordedAt: new Date().toISOString() }
      try {
        mkdirSync(dir, { recursive: true })
        writeFileSync(file(pgid), JSON.stringify(record) + '\n', { mode: 0o600 })
      } catch (error) {
        logger?.warn(`cannot record agent process group ${pgid}`, error)
      }
    },
    remove(pgid) {
      rmSync(file(pgid), { force: true })
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
  const processes = platform === 'linux' ? listProcesses(procRoot) : []
  for (const name of names) {
    const path = join(dir, name)
    let record: GroupRecord
    try {
      record = JSON.parse(readFileSync(path, 'utf8')) as GroupRecord
    } catch {
      rmSync(path, { force: true })
      continue
    }
    rmSync(path, { force: true })
    if (!Number.isInteger(record.pgid) || record.pgid <= 1 || record.bosunPid === process.pid) continue
    report.groups++
    if (platform !== 'linux' || record.startTime === null) continue
    const leader = processes.find((p) => p.pid === record.pgid)
    if (leader && leader.startTime !== record.startTime) {
      report.skipped++
      continue
    }
    const members = processes.filter((p) => p.pgrp === record.pgid && p.startTime >= record.startTime! && p.state !== 'Z')
    if (members.length === 0) continue
    try {
      kill(-record.pgid, 'SIGKILL')
      report.killed += members.length
    } catch (error) {
      logger?.warn(`cannot reap agent process group ${record.pgid}`, error)
    }
  }
  if (report.groups > 0) logger?.info(`previous run left ${report.groups} agent process group(s): killed ${report.killed} process(es), left ${report.skipped} group(s) that changed`)
  return report
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
  let entries: string[]
  try {
    entries = readdirSync(procRoot)
  } catch {
    return []
  }
  const out: ProcStat[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(procRoot, Number(entry))
    if (stat) out.push(stat)
  }
  return out
}

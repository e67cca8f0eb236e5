/**
 * What a test run leaves behind: entries in its temporary folder, and processes still running that it started.
 * A process counts as started by a run when its TMPDIR (inherited from the test file's worker) lies in the run's
 * folder: other runs (helpers, CI jobs in parallel) have folders of their own, so they are never counted or ended.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { sep } from 'node:path'

export interface LeftProcess {
  pid: number
  command: string
}

/** The live processes (not zombies) whose TMPDIR is `dir` or inside it. */
export function processesIn(dir: string): LeftProcess[] {
  const found: LeftProcess[] = []
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      const tmp = readFileSync(`/proc/${pid}/environ`, 'latin1')
        .split('\0')
        .find((entry) => entry.startsWith('TMPDIR='))
        ?.slice('TMPDIR='.length)
      if (tmp === undefined || (tmp !== dir && !tmp.startsWith(dir + sep))) continue
      // A zombie has ended: only its parent has not collected its status yet.
      if (/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))) continue
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim() || readlinkSync(`/proc/${pid}/exe`)
      found.push({ pid, command: command.slice(0, 300) })
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}

/**
 * The processes of `dir` still running once those that are ending have had `graceMs` to exit (an owner that sent
 * SIGTERM in its afterAll need not wait for the exit). Polls: an unrelated process's exit has no event to await.
 */
export async function processesLeftIn(dir: string, graceMs = 5_000): Promise<LeftProcess[]> {
  const deadline = Date.now() + graceMs
  for (;;) {
    const left = processesIn(dir)
    if (left.length === 0 || Date.now() >= deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Ends `left` (SIGKILL), so that a leak reported once does not outlive the run too. */
export function endProcesses(left: readonly LeftProcess[]): void {
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

export function describeLeftovers(entries: readonly string[], processes: readonly LeftProcess[]): string {
  return [
    ...entries.map((entry) => `  file or folder: ${entry}`),
    ...processes.map(({ pid, command }) => `  process ${pid}: ${command}`),
  ].join('\n')
}

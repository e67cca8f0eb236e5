/**
 * The hostile-agent suite's helpers: a test home with the hostile agent in one mode next to a well-behaved
 * control agent, health checks after each attack, and the tally every file prints at the end.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect } from 'vitest'
import { calls } from '../../../common/contract'
import type { HostileAgentLimits, Notifier } from '../../../main/app/services'
import { hostileAgentCommand } from '../../agents/command'
import { must, servicesPerTest, type TestServices } from '../../support/services'

export { must }

/** What the suite reports (issue 13's "done when"). */
export interface Tally {
  inputs: number
  crashes: number
  sessionsBroken: number
  messagesLost: number
  secretsLeaked: number
  orphans: number
}

/** One tally per file, printed once at the end; `crashes` counts uncaught errors in this process. */
export function tallyPerFile(label: string): Tally {
  const tally: Tally = { inputs: 0, crashes: 0, sessionsBroken: 0, messagesLost: 0, secretsLeaked: 0, orphans: 0 }
  const onCrash = () => tally.crashes++
  process.on('uncaughtException', onCrash)
  process.on('unhandledRejection', onCrash)
  afterAll(() => {
    process.off('uncaughtException', onCrash)
    process.off('unhandledRejection', onCrash)
    console.log(
      `hostile agent (${label}): inputs tried ${tally.inputs}, crashes ${tally.crashes}, sessions broken ${tally.sessionsBroken}, ` +
        `messages lost ${tally.messagesLost}, secrets leaked ${tally.secretsLeaked}, orphans ${tally.orphans}`,
    )
    expect(tally).toMatchObject({ crashes: 0, sessionsBroken: 0, messagesLost: 0, secretsLeaked: 0, orphans: 0 })
  })
  return tally
}

export interface HostileSetup extends TestServices {
  /** The hostile agent's reports (JSON lines it appended), read now. */
  reports(): Record<string, unknown>[]
}

/**
 * Starts the services with `hostile` (the hostile agent in `mode`) and `control` (the scripted agent on
 * its basic scenario).
 */
export function hostilePerTest(): (
  mode: string,
  options?: {
    count?: number
    limits?: HostileAgentLimits
    extraArgs?: string[]
    secretEnv?: string[]
    notifier?: Notifier
    isWindowFocused?: () => boolean
  },
) => Promise<HostileSetup> {
  const start = servicesPerTest()
  return async (mode, options = {}) => {
    let reportFile = ''
    const setup = await start(
      [
        {
          id: 'hostile',
          name: 'Hostile',
          scenario: 'basic',
          secretEnv: options.secretEnv ?? [],
          // It answers 1: offered 1, it is served files, terminals and elicitation, the surface it attacks.
          protocolVersion: 1,
          command: hostileAgentCommand(mode, { count: options.count ?? 100, extraArgs: ['--report', '@REPORT@', ...(options.extraArgs ?? [])] }),
        },
        { id: 'control', name: 'Control', scenario: 'basic' },
      ],
      (home) => {
        reportFile = join(home.home, 'hostile-report.jsonl')
        const file = join(home.home, 'agents.json')
        writeFileSync(file, readFileSync(file, 'utf8').replaceAll('@REPORT@', reportFile))
      },
      {
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.notifier ? { notifier: options.notifier } : {}),
        ...(options.isWindowFocused ? { isWindowFocused: options.isWindowFocused } : {}),
      },
    )
    return {
      ...setup,
      reports: () =>
        existsSync(reportFile)
          ? readFileSync(reportFile, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as Record<string, unknown>)
          : [],
    }
  }
}

/**
 * After an attack: every session still serialises (JSON and structured clone, the two hosts' transports)
 * and matches the contract, and the control agent still runs a whole turn. Returns how many sessions broke.
 */
export async function brokenSessions(setup: TestServices): Promise<number> {
  let broken = 0
  const snapshot = await setup.handlers.getSnapshot(undefined)
  if (!snapshot.ok) return 1
  for (const session of snapshot.value.sessions) {
    try {
      JSON.stringify(session)
      structuredClone(session)
      if (!calls.getSnapshot.output.safeParse({ agents: [], sessions: [session] }).success) broken++
    } catch {
      broken++
    }
  }
  const created = await setup.handlers.newSession({ agentId: 'control', cwd: setup.workspace })
  if (!created.ok) return broken + 1
  const turn = await setup.handlers.prompt({ sessionId: created.value.sessionId, prompt: [{ type: 'text', text: 'hello' }] })
  if (!turn.ok || turn.value.stopReason !== 'end_turn') broken++
  return broken
}

/** Resolves once a batch for `sessionId` carries an update that `predicate` accepts. */
export function nextUpdate(setup: TestServices, sessionId: string, predicate: (update: Record<string, unknown>) => boolean): Promise<unknown> {
  return setup.sink.next('sessionActions', (batch) =>
    batch.sessionId === sessionId && batch.actions.some((a) => a.type === 'updates' && a.updates.some((u) => predicate(u))),
  )
}

/**
 * Repeats `step` (cancel the session, answer what is pending…) each time main emits something, until
 * `done` settles: a flood keeps arriving after the first answers, and nothing else says when it is over.
 */
export async function repeatUntil<T>(setup: TestServices, done: Promise<T>, step: () => Promise<unknown>): Promise<T> {
  let settled = false
  void done.then(
    () => (settled = true),
    () => (settled = true),
  )
  while (!settled) {
    const seen = setup.sink.events.length
    const next = setup.sink.next('sessionActions', () => setup.sink.events.length > seen)
    await step()
    await Promise.race([done, next])
    // When the step's own events satisfy `next` at once, this loop runs on microtasks alone: let I/O (the agent's
    // answers) in before the next round, or the flood is never read.
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  return done
}

/** Whether process `pid` runs (Linux: /proc); a zombie waiting for its new parent to reap it is gone for our purposes. */
export function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z')
  } catch {
    return false
  }
}

/** Polls /proc until none of `pids` runs (no event tells us that an unrelated process died); bounded by the test timeout. */
export async function untilDead(pids: number[]): Promise<void> {
  while (pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** What keeps this process's event loop busy, by kind (processes, pipes, timers, file requests…). */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1
  return counts
}

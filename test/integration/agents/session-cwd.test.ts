/**
 * Checklist A14: a session's working directory travels in `session/new` and on the resume after a restart
 * (`cwd`), whatever folder the agent process was started in. One agent process started in a folder of its
 * own serves two sessions in two other folders, through the composition root with the scripted v1 agent.
 */
import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { clientReports } from '../../support/client-reports'
import { must } from '../../support/must'
import { agentLog, historyHarness, type Run } from '../history/restart'

// Starts Bosun (and an agent) twice around a restart.
vi.setConfig({ testTimeout: 60_000 })

const harness = historyHarness()

const scenario: Scenario = {
  initialize: { capabilities: { loadSession: true, sessionCapabilities: { resume: {} } } },
  prompts: { read: [{ type: 'client_request', method: 'fs/read_text_file', params: { path: '{cwd}/notes.txt' } }] },
}

/** The agent's log lines that start with `marker`, their JSON parsed. */
function logged(log: string, marker: string): Record<string, unknown>[] {
  return log
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => JSON.parse(line.slice(line.indexOf(marker) + marker.length)) as Record<string, unknown>)
}

async function readNotes(run: Run, sessionId: string): Promise<unknown> {
  must(await run.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'read' }] }))
  const state = must(await run.handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  return clientReports(state).at(-1)
}

it('each session sends its own folder as cwd, not the folder the agent process was started in, and again on the resume after a restart', async () => {
  const spawnedIn = mkdtempSync(join(tmpdir(), 'bosun-spawned-in-'))
  writeFileSync(join(spawnedIn, 'notes.txt'), 'the process folder\n')
  const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario(scenario), defaultCwd: spawnedIn }], (h) => {
    const cleanup = h.cleanup
    h.cleanup = () => {
      cleanup()
      rmSync(spawnedIn, { recursive: true, force: true })
      rmSync(`${h.workspace}-b`, { recursive: true, force: true })
    }
  })
  const a = home.workspace
  const b = `${home.workspace}-b`
  mkdirSync(b)
  writeFileSync(join(a, 'notes.txt'), 'folder a\n')
  writeFileSync(join(b, 'notes.txt'), 'folder b\n')

  const first = await harness.start(home)
  const sessionA = must(await first.handlers.newSession({ agentId: 'scripted', cwd: a })).sessionId
  const sessionB = must(await first.handlers.newSession({ agentId: 'scripted', cwd: b })).sessionId
  const [agent] = must(await first.handlers.getSnapshot(undefined)).agents
  // One process, started in its own folder.
  expect(realpathSync(readlinkSync(`/proc/${agent!.pid}/cwd`))).toBe(realpathSync(spawnedIn))
  await expect.poll(() => logged(agentLog(home, 'scripted'), 'SESSION-NEW ').length).toBe(2)
  expect(logged(agentLog(home, 'scripted'), 'SESSION-NEW ').map((p) => p.cwd)).toEqual([a, b])
  // The agent reads each session's file where that session is (and Bosun serves it from that session's folder).
  expect(await readNotes(first, sessionA)).toEqual({ content: 'folder a\n' })
  expect(await readNotes(first, sessionB)).toEqual({ content: 'folder b\n' })
  await harness.stop(first)

  // Continued after a restart: the resume carries the session's folder too.
  const second = await harness.start(home)
  must(await second.handlers.historyOpen({ sessionId: sessionB }))
  await second.sink.next('sessionAdded', (e) => e.session.sessionId === sessionB)
  expect(await readNotes(second, sessionB)).toEqual({ content: 'folder b\n' })
  await expect.poll(() => logged(agentLog(home, 'scripted'), 'REATTACH-PARAMS ').length).toBe(1)
  expect(logged(agentLog(home, 'scripted'), 'REATTACH-PARAMS ')[0]).toMatchObject({ cwd: b })
})

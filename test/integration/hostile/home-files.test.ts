/**
 * Bosun's own files replaced by something hostile: a FIFO where an agent's log, a session's permission audit or the
 * confirmation record goes. Writing them, reading the log for the Logs tab and quitting (which waits for all three)
 * never wait on it: the agent runs its turn, the log call says what is wrong at once, the services stop, each append
 * fails with a line in Bosun's log, and the FIFO is left as it is.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import { createMemoryLogger } from '../../../main/base/log'
import { AuditLog, auditFileName } from '../../../main/permissions/audit-log'
import { CONFIRMATION_LOG_FILE, ownerConfirmation, recordConfirmations } from '../../../main/trust/confirmation'
import { RecordingSink } from '../../support/recording-sink'
import { createTestHome } from '../../support/bosun-home'
import { must } from './harness'

it('a FIFO as an agent’s log: the turn runs, the Logs call answers at once, and Bosun stops without waiting on it', async () => {
  const home = createTestHome([{ id: 'a', name: 'A', scenario: 'basic' }])
  try {
    const fifo = join(home.home, 'logs', 'agents', 'a.log')
    mkdirSync(join(home.home, 'logs', 'agents'), { recursive: true })
    execFileSync('mkfifo', [fifo])
    const services = await createBosunServices({ home: home.home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink() })
    const h = services.handlers
    const { sessionId } = must(await h.newSession({ agentId: 'a', cwd: home.workspace }))
    expect(must(await h.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] })).stopReason).toBe('end_turn')
    expect(await h.getAgentLog({ agentId: 'a' })).toMatchObject({
      ok: false,
      error: { message: `The log cannot be kept: ${fifo} is not a regular file (a FIFO, a device, a socket or a link to one), and Bosun keeps the agent's log in a file of that name. Move or remove it. The log starts again when the agent next starts.` },
    })
    // Quitting flushes every agent's log first: it ends.
    await services.dispose()
    expect(lstatSync(fifo).isFIFO()).toBe(true)
  } finally {
    home.cleanup()
  }
}, 30_000)

it('a file where the logs folder should be: the turn runs, and the Logs call says which file is in the way, not ENOTDIR', async () => {
  const home = createTestHome([{ id: 'a', name: 'A', scenario: 'basic' }])
  try {
    const inTheWay = join(home.home, 'logs')
    writeFileSync(inTheWay, 'not a folder\n')
    const services = await createBosunServices({ home: home.home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink() })
    const h = services.handlers
    const { sessionId } = must(await h.newSession({ agentId: 'a', cwd: home.workspace }))
    expect(must(await h.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] })).stopReason).toBe('end_turn')
    const read = await h.getAgentLog({ agentId: 'a' })
    expect(read).toMatchObject({ ok: false, error: { message: `The log cannot be kept: ${inTheWay} is a file, and Bosun keeps the agents' logs in a folder of that name. Move or remove that file. The log starts again when the agent next starts.` } })
    // The file is left as it was; once it is moved aside, the agent's next start logs again.
    expect(readFileSync(inTheWay, 'utf8')).toBe('not a folder\n')
    renameSync(inTheWay, `${inTheWay}.moved`)
    must(await h.restartAgent({ agentId: 'a' }))
    expect(must(await h.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] })).stopReason).toBe('end_turn')
    expect(must(await h.getAgentLog({ agentId: 'a' })).text).not.toBe('')
    await services.dispose()
  } finally {
    home.cleanup()
  }
}, 30_000)

it('a FIFO as a session’s permission audit or as the confirmation record: appends fail and say so, flushes end', async () => {
  const home = createTestHome([])
  try {
    mkdirSync(join(home.home, 'audit'), { recursive: true })
    const auditFifo = join(home.home, 'audit', auditFileName('a/s-1'))
    const recordFifo = join(home.home, CONFIRMATION_LOG_FILE)
    execFileSync('mkfifo', [auditFifo, recordFifo])
    const log = createMemoryLogger()
    const audit = new AuditLog(home.home, log)
    audit.append({ at: 1, sessionId: 'a/s-1', agentId: 'a', requestId: 'q', by: 'person', outcome: 'selected', title: 'Run?' })
    await audit.flush()
    const recorded = recordConfirmations(ownerConfirmation(log), { home: home.home, host: 'web', log })
    expect((await recorded.confirm({ kind: 'agent-start', title: 'Start', message: 'Start "A"?', detail: 'Program: "sh"', confirmLabel: 'Start' })).confirmed).toBe(true)
    await recorded.flush()
    expect(log.lines.filter((l) => l.includes('is not a regular file') || l.includes('ENXIO'))).toHaveLength(2)
    expect([lstatSync(auditFifo).isFIFO(), lstatSync(recordFifo).isFIFO()]).toEqual([true, true])
  } finally {
    home.cleanup()
  }
}, 30_000)

it('a log that stops while the agent runs: the agent goes on, the Logs tab shows what was logged and why it stopped, history and settings are unaffected', async () => {
  const home = createTestHome([{ id: 'a', name: 'A', scenario: 'basic' }])
  try {
    const services = await createBosunServices({ home: home.home, host: 'web', appVersion: '0.0.0-test', events: new RecordingSink() })
    const h = services.handlers
    const { sessionId } = must(await h.newSession({ agentId: 'a', cwd: home.workspace }))
    expect(must(await h.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] })).stopReason).toBe('end_turn')
    const before = must(await h.getAgentLog({ agentId: 'a' })).text
    expect(before).toContain('started: ')
    // The logs' folder is moved aside and a file put in its place while the agent runs: its next line cannot be written.
    const folder = join(home.home, 'logs', 'agents')
    renameSync(folder, `${folder}.moved`)
    writeFileSync(folder, 'in the way\n')
    must(await h.stopAgent({ agentId: 'a' }))
    expect(await h.getAgentLog({ agentId: 'a' })).toMatchObject({ ok: false, error: { message: expect.stringContaining(`${folder} is a file`) } })
    // Put back: the log reads again, and says under what it kept that it stopped, why and what to do.
    rmSync(folder)
    renameSync(`${folder}.moved`, folder)
    const stopped = must(await h.getAgentLog({ agentId: 'a' })).text
    expect(stopped.startsWith(before)).toBe(true)
    expect(stopped.slice(before.length)).toMatch(
      new RegExp(`^\\[bosun\\] Bosun stopped writing this log at \\S+: A folder on the way to ${join(folder, 'a.log')} is a file \\((ENOTDIR|EEXIST)\\)\\. Move or remove that file\\. It starts again when the agent next starts\\.\\n$`),
    )
    // The session, its history and the settings go on; the agent's next start logs again.
    expect(must(await h.prompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] })).stopReason).toBe('end_turn')
    expect(must(await h.historyList({})).sessions.map((s) => s.sessionId)).toEqual([sessionId])
    expect(must(await h.setNotificationSettings({ notifyOnTurnEnd: true })).notifyOnTurnEnd).toBe(true)
    const after = must(await h.getAgentLog({ agentId: 'a' })).text
    expect(after).not.toContain('Bosun stopped writing this log')
    expect(after.match(/started: /g)).toHaveLength(2)
    await services.dispose()
  } finally {
    home.cleanup()
  }
}, 30_000)

/**
 * An agent's log that cannot be written stops once and says why in words a person can act on: which file or folder,
 * what to do, and that it starts again with the agent's next start.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { AgentLogFile, whyLogStopped } from '../../../main/agents/agent-log-file'
import { createMemoryLogger } from '../../../main/base/log'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-agent-log-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const systemError = (code: string) => Object.assign(new Error(`${code}: failed`), { code })

it('says what to do for a folder Bosun may not write, a read-only or full disk, and something not a file in the way', () => {
  const path = '/home/ada/.bosun/logs/agents/a.log'
  expect(whyLogStopped(path, systemError('EACCES'))).toBe(`Bosun may not write ${path} (EACCES). Give it write access to /home/ada/.bosun/logs/agents and to the file.`)
  expect(whyLogStopped(path, systemError('EROFS'))).toBe('/home/ada/.bosun/logs/agents is on a disk that is read-only (EROFS).')
  expect(whyLogStopped(path, systemError('ENOSPC'))).toBe('The disk of /home/ada/.bosun/logs/agents is full (ENOSPC). Free some space.')
  expect(whyLogStopped(path, new Error(`${path} is not a regular file`))).toBe(`${path} is not a regular file (a FIFO, a device, a socket or a link to one), and Bosun keeps the agent's log in a file of that name. Move or remove it.`)
  expect(whyLogStopped(path, new Error('something else'))).toBe('something else.')
})

it('a log that stops on an error says why and when, once; later lines are not tried', async () => {
  const logger = createMemoryLogger()
  // A file where the log's folder should be: the folder cannot be made.
  await writeFile(join(dir, 'agents'), 'in the way\n')
  const path = join(dir, 'agents', 'a.log')
  const log = new AgentLogFile(path, { logger })
  expect(log.stoppedReason).toBeUndefined()
  log.appendLine('first')
  await log.flush()
  expect(log.stopped).toBe(true)
  expect(log.stoppedReason).toMatch(
    new RegExp(`^Bosun stopped writing this log at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: A folder on the way to ${path} is a file \\((ENOTDIR|EEXIST)\\)\\. Move or remove that file\\. It starts again when the agent next starts\\.$`),
  )
  const reason = log.stoppedReason
  log.appendLine('second')
  await log.flush()
  expect(log.stoppedReason).toBe(reason)
  expect(logger.lines.filter((l) => l.includes('cannot write agent log'))).toHaveLength(1)
})

it('a folder in the log’s place is named as such', async () => {
  const log = new AgentLogFile(dir)
  log.appendLine('line')
  await log.flush()
  expect(log.stoppedReason).toContain(`${dir} is a folder, and Bosun keeps the agent's log in a file of that name. Move or remove that folder.`)
})

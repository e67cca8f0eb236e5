/**
 * I6 (liberal in what Bosun accepts): `null` for an optional list or value of `terminal/create` (`args`, `env`, `cwd`,
 * `outputByteLimit`, which the schema defaults on null) is read as omitted: the command runs, in the session's folder.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { TerminalHandlers } from '../../../main/terminals/terminal-handlers'
import { attachAgent } from '../terminals/attach'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

it('terminal/create with args, env, cwd and outputByteLimit null runs the command in the session folder', async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bosun-null-lists-')))
  const handlers = new TerminalHandlers({
    sessions: { getSession: (agentId, acpSessionId) => (agentId === 'a' && acpSessionId === 's1' ? { sessionId: 'bosun-s1', cwd: dir, roots: [dir] } : undefined) },
    sink: () => undefined,
  })
  const agent = attachAgent(handlers)
  cleanups.push(() => {
    agent.dispose()
    handlers.dispose()
    rmSync(dir, { recursive: true, force: true })
  })
  const { terminalId } = (await agent.call('terminal/create', { sessionId: 's1', command: 'pwd', args: null, env: null, cwd: null, outputByteLimit: null })) as { terminalId: string }
  expect(await agent.call('terminal/wait_for_exit', { sessionId: 's1', terminalId })).toEqual({ exitCode: 0, signal: null })
  const { output } = (await agent.call('terminal/output', { sessionId: 's1', terminalId })) as { output: string }
  expect(output.trim()).toBe(dir)
  await agent.call('terminal/release', { sessionId: 's1', terminalId })
})

/**
 * An agent program that is there but cannot run: a script whose `#!` interpreter is missing (the kernel answers ENOENT,
 * which read "command not found" for a file the person can see), one saved with Windows line breaks (`/bin/sh\r`), a
 * folder, a FIFO, a script whose interpreter is a folder. Starting a session says why, and so does the agent form before it is saved; the control agent still runs.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { brokenSessions, tallyPerFile } from './harness'
import { must, servicesPerTest } from '../../support/services'

const tally = tallyPerFile('unrunnable')
const start = servicesPerTest()

const CASES = [
  { id: 'no-interpreter', body: '#!/nonexistent/bin/node-agent --acp\nconsole.log(1)\n', says: /its interpreter "\/nonexistent\/bin\/node-agent" \(the #! line of .*no-interpreter\) is not there or cannot run/ },
  { id: 'crlf', body: '#!/bin/sh\r\necho hi\r\n', says: /the first line of .*crlf \(#!\) ends with a Windows line break/ },
  { id: 'folder', body: null, says: /folder is a folder, not a program/ },
  // A FIFO: spawn answers EACCES, which read 'permission denied (is … executable?)'.
  { id: 'fifo', body: null, says: /fifo is not a program file \(a FIFO\)/ },
  // A folder as the #! interpreter: the kernel answers EACCES; access(X_OK) passes a folder, so the check said nothing.
  { id: 'folder-interpreter', body: '#!/tmp --acp\n', says: /its interpreter "\/tmp" \(the #! line of .*folder-interpreter\) is not there or cannot run/ },
]
const NOT_A_FILE = new Set(['folder', 'fifo'])

it('says why an agent program that exists cannot run, when a session starts and in the form', async () => {
  let bin = ''
  const setup = await start(
    [
      ...CASES.map((c) => ({ id: c.id, name: c.id, scenario: 'basic', command: { command: `@BIN@/${c.id}`, args: [] } })),
      { id: 'control', name: 'Control', scenario: 'basic' },
    ],
    (home) => {
      bin = join(home.home, 'bin')
      mkdirSync(bin)
      for (const c of CASES) {
        if (c.id === 'fifo') execFileSync('mkfifo', [join(bin, c.id)])
        else if (c.body === null) mkdirSync(join(bin, c.id))
        else {
          writeFileSync(join(bin, c.id), c.body)
          chmodSync(join(bin, c.id), 0o755)
        }
      }
      const file = join(home.home, 'agents.json')
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('@BIN@', bin))
    },
  )
  for (const c of CASES) {
    tally.inputs++
    const created = await setup.handlers.newSession({ agentId: c.id, cwd: setup.workspace })
    expect(created.ok).toBe(false)
    if (!created.ok) expect({ id: c.id, message: created.error.message }).toEqual({ id: c.id, message: expect.stringMatching(c.says) })
    const checked = must(await setup.handlers.validateAgentDefinition({ draft: { name: c.id, command: join(bin, c.id), argsText: '', env: [], secretEnv: [], defaultCwd: '' } }))
    expect({ id: c.id, error: checked.errors.command }).toEqual({ id: c.id, error: expect.stringMatching(NOT_A_FILE.has(c.id) ? /is not an executable file/ : new RegExp(c.says.source, 'i')) })
  }
  tally.sessionsBroken += await brokenSessions(setup)
}, 60_000)

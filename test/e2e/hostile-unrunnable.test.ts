/**
 * An agent program that is there but cannot run (a script whose #! interpreter is missing): the new-session form says
 * so, not "command not found" for a file the person can see.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { submitNewSession, visible } from './support/session-ui'

const launch = launchPerTest()
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

it('says that a script’s interpreter is missing when its agent does not start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-unrunnable-'))
  dirs.push(dir)
  const script = join(dir, 'my-agent')
  writeFileSync(script, '#!/opt/missing/bin/node\nconsole.log("hi")\n')
  chmodSync(script, 0o755)
  const app = await launch([{ id: 'broken', name: 'Broken agent', scenario: 'unused', command: { command: script, args: [] } }])
  const { page } = app
  const form = await submitNewSession(page, { cwd: app.home.workspace })
  await visible(form.getByRole('alert').getByText(`Cannot start Broken agent: its interpreter "/opt/missing/bin/node" (the #! line of ${script}) is not there or cannot run`))
  await screenshot(page, 'unrunnable-start')
})

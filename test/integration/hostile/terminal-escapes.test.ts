/**
 * A command the agent runs in a Bosun terminal (`terminal/create`) starts something that leaves the terminal's process
 * group (`setsid`, as a daemon does) and ends. The terminal's group is killed as before, which misses it; it carries the
 * agent's run tag in its environment, put first and never the agent's to change, so it goes when the agent stops,
 * restarts or Bosun quits, as what the agent starts itself does (run-tag.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { alive, brokenSessions, hostilePerTest, must, tallyPerFile, untilDead } from './harness'

const tally = tallyPerFile('terminal-escapes')
const start = hostilePerTest()
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A terminal whose command leaves a `sleep` in a session of its own and writes its pid to `file`, then ends. */
function escapingCommand(id: number, file: string, agentEnv: { name: string; value: string }[] = []): string {
  const inner = `echo $$ > ${file}.tmp && mv ${file}.tmp ${file} && exec sleep 600`
  // The command ends once the escaped one has left (its group is killed at its exit, which would catch it before).
  const command = `setsid sh -c '${inner}' < /dev/null > /dev/null 2>&1 & until [ -e ${file} ]; do sleep 0.05; done`
  const params = { sessionId: '{session}', command: 'sh', args: ['-c', command], env: agentEnv }
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'terminal/create', params })
}

async function pidIn(file: string): Promise<number> {
  await expect.poll(() => existsSync(file)).toBe(true)
  return Number(readFileSync(file, 'utf8').trim())
}

it.runIf(process.platform === 'linux')('kills what an agent’s command took out of its terminal’s process group when the agent is stopped, even with the tag overridden in its env', async () => {
  const setup = await start('script')
  const plain = join(setup.workspace, 'plain.pid')
  const overridden = join(setup.workspace, 'overridden.pid')
  writeFileSync(
    join(setup.testHome.home, 'script.json'),
    JSON.stringify([escapingCommand(1, plain), escapingCommand(2, overridden, [{ name: 'BOSUN_AGENT_RUN', value: 'none' }])]),
  )
  const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
  expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })).stopReason).toBe('end_turn')
  const pids = [await pidIn(plain), await pidIn(overridden)]
  cleanups.push(() => pids.filter(alive).forEach((pid) => process.kill(pid, 'SIGKILL')))
  tally.inputs += pids.length
  // The commands ended and their groups were killed; what left the group still runs while the agent does.
  expect(pids.every(alive)).toBe(true)
  must(await setup.handlers.stopAgent({ agentId: 'hostile' }))
  // Before: both slept on for ten minutes after the agent was stopped, and after Bosun quit.
  await untilDead(pids)
  tally.orphans += pids.filter(alive).length
  tally.sessionsBroken += await brokenSessions(setup)
}, 30_000)

/**
 * Issue 13, files and processes: Bosun itself is SIGKILLed while its agent has grandchildren. The next
 * Bosun on that home takes over the stale home lock and reaps what the previous run left in the agent's
 * process group, and a grandchild that left the group with `setsid` by the run tag it inherited. While
 * the first Bosun still runs, a second one on the same home is refused and told who holds it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { createBosunServices } from '../../../main/app/create-services'
import { hostileAgentCommand } from '../../agents/command'
import { createTestHome, type TestHome } from '../../support/bosun-home'
import { RecordingSink } from '../../support/recording-sink'
import { alive, tallyPerFile, untilDead } from './harness'

const here = dirname(fileURLToPath(import.meta.url))
const tally = tallyPerFile('processes')
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function startBosunChild(testHome: TestHome): Promise<{ child: ChildProcess; line: string }> {
  const tsx = pathToFileURL(join(here, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
  const child = spawn(process.execPath, ['--import', tsx, join(here, 'bosun-child.ts'), testHome.home, testHome.workspace], { stdio: ['ignore', 'pipe', 'inherit'] })
  cleanups.push(() => child.kill('SIGKILL'))
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const newline = out.indexOf('\n')
      if (newline >= 0) resolve({ child, line: out.slice(0, newline) })
    })
    child.once('exit', (code) => reject(new Error(`the Bosun child exited (${code}) before it was ready: ${out}`)))
  })
}

it.skipIf(process.platform !== 'linux')('reaps the grandchildren of a killed Bosun on the next start, and locks the home meanwhile', async () => {
  const testHome = createTestHome([{ id: 'hostile', name: 'Hostile', scenario: 'basic', command: hostileAgentCommand('grandchildren', { extraArgs: ['--report', 'REPORT'] }) }])
  cleanups.push(() => testHome.cleanup())
  const reportFile = join(testHome.home, 'report.jsonl')
  const agentsFile = join(testHome.home, 'agents.json')
  const { writeFileSync } = await import('node:fs')
  writeFileSync(agentsFile, readFileSync(agentsFile, 'utf8').replace('"REPORT"', JSON.stringify(reportFile)))

  const { child, line } = await startBosunChild(testHome)
  expect(line).toMatch(/^ready /)
  const report = JSON.parse(readFileSync(reportFile, 'utf8').split('\n')[0]!) as { grandchildren: number[]; escaped: number | null }
  cleanups.push(() => report.escaped !== null && alive(report.escaped) && process.kill(report.escaped, 'SIGKILL'))
  expect(report.grandchildren).toHaveLength(2)
  expect(report.grandchildren.every(alive)).toBe(true)

  // A second Bosun on the same home while the first runs: refused, told who holds it and how to choose another home.
  const sink = new RecordingSink()
  await expect(createBosunServices({ home: testHome.home, host: 'electron', appVersion: '0.0.0-test', events: sink })).rejects.toThrow(
    new RegExp(`the browser host \\(npm run start:web\\), pid ${child.pid}.*BOSUN_HOME=`),
  )

  // Bosun dies without stopping anything.
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
  expect(report.grandchildren.every(alive)).toBe(true)
  expect(existsSync(join(testHome.home, 'run', 'agent-groups'))).toBe(true)

  // The next Bosun takes over the stale lock and reaps the leftovers.
  const next = await createBosunServices({ home: testHome.home, host: 'electron', appVersion: '0.0.0-test', events: sink })
  cleanups.push(() => next.dispose())
  // What `setsid` took out of the group goes too: it carries the agent run's tag, which the record keeps (run-tag.ts).
  expect(report.escaped).not.toBeNull()
  const leftovers = [...report.grandchildren, report.escaped!]
  await untilDead(leftovers)
  tally.inputs += leftovers.length
  tally.orphans += leftovers.filter(alive).length
  expect(leftovers.filter(alive)).toEqual([])
})

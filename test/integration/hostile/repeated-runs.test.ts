/**
 * Memory after repeated runs in one services instance: sessions opened, used and closed by the hundred, the agent
 * restarted every fifty. Main keeps nothing per closed session or per ended process: once the bounded parts are full
 * (the protocol inspector's ring of 2,000 messages per agent), its heap after a full GC stays where it was. Probed
 * this way with floods too (a tool call's content replaced 300 times, 300 permission requests, a restart each run,
 * 40–70 runs: flat once the ring was full); this file keeps the cheapest run as the guard.
 */
import { randomBytes } from 'node:crypto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, it } from 'vitest'
import { readdirSync } from 'node:fs'
import { activeResources, hostilePerTest, must, tallyPerFile } from './harness'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const tally = tallyPerFile('repeated-runs')
const start = hostilePerTest()
/** What a session would keep of each run if it were kept: 20 KB of prompt of its own (a repeated string shares its parts). */
const padding = () => randomBytes(10_000).toString('hex')

/** This process's open file descriptors (Linux). */
const openDescriptors = () => readdirSync('/proc/self/fd').length
/** Child processes and pipes main holds (timers come and go with the history's quarter-second writes). */
const processesAndPipes = () => {
  const { PipeWrap = 0, ProcessWrap = 0 } = activeResources()
  return { PipeWrap, ProcessWrap }
}

/** Main's heap after full collections, with what the test itself records of the events dropped first. */
async function retainedHeap(events: unknown[]): Promise<number> {
  events.length = 0
  for (let i = 0; i < 4; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage().heapUsed
}

it.runIf(process.platform === 'linux')('keeps nothing per closed session or restarted agent: 450 more sessions and 9 restarts leave the heap within 4 MiB and no descriptor, pipe or process more', async () => {
  const setup = await start('well-behaved', { count: 1 })
  const runs = async (count: number) => {
    for (let run = 0; run < count; run++) {
      const sessionId = must(await setup.handlers.newSession({ agentId: 'hostile', cwd: setup.workspace })).sessionId
      expect(must(await setup.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: `run ${run} ${padding()}` }] })).stopReason).toBe('end_turn')
      must(await setup.handlers.closeSession({ sessionId }))
      if (run % 50 === 49) must(await setup.handlers.restartAgent({ agentId: 'hostile' }))
      if (run % 50 === 0) setup.sink.events.length = 0
    }
    tally.inputs += count
  }
  // Fills what is bounded (the inspector's ring), so what follows measures what is kept per run.
  await runs(450)
  const before = await retainedHeap(setup.sink.events)
  const fdsBefore = openDescriptors()
  const resourcesBefore = processesAndPipes()
  await runs(450)
  const after = await retainedHeap(setup.sink.events)
  // 0.2 MiB here; a closed session's prompt kept (20 KB × 450: 8.8 MiB) fails it.
  expect((after - before) / 1024 / 1024).toBeLessThan(4)
  // Nor a descriptor, pipe or child process per run: the counts are taken right after a restart each time.
  expect(openDescriptors()).toBe(fdsBefore)
  expect(processesAndPipes()).toEqual(resourcesBefore)
  expect(must(await setup.handlers.getSnapshot(undefined)).sessions).toHaveLength(0)
}, 120_000)

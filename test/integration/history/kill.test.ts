import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Step } from '../../agents/scenario'
import { openHistoryStore } from '../../../main/history/sqlite-history-store'
import { decodeEntry } from '../../../main/history/entry-codec'
import { historyHarness } from './restart'

const harness = historyHarness()
const here = dirname(fileURLToPath(import.meta.url))
const tsx = pathToFileURL(join(resolve(here, '..', '..', '..'), 'node_modules', 'tsx', 'dist', 'loader.mjs')).href

describe('kill -9 of the process running the services during a flood', () => {
  it('loses at most the last second of updates and leaves a database that opens cleanly', async () => {
    // About four seconds of streaming: bursts of 300 chunks, 30 ms apart.
    const flood: Step[] = []
    for (let i = 0; i < 80; i++) flood.push({ type: 'flood', count: 300, text: 'word ' }, { type: 'sleep', ms: 30 })
    const home = harness.home([{ id: 'scripted', name: 'Scripted', scenario: harness.scenario({ prompts: { flood } }) }])
    const child = spawn(process.execPath, ['--import', tsx, join(here, 'flood-child.ts'), home.home, home.workspace], { stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = once(child, 'exit')
    const samples: { characters: number; at: number }[] = []
    let sessionId = ''
    let killedAt = 0
    for await (const line of createInterface({ input: child.stdout })) {
      const [word, a, b] = line.split(' ')
      if (word === 'session') sessionId = a!
      if (word !== 'applied') continue
      const sample = { characters: Number(a), at: Number(b) }
      samples.push(sample)
      const started = samples.find((s) => s.characters > 0)
      if (started && sample.at - started.at >= 2_000) {
        child.kill('SIGKILL')
        killedAt = Date.now()
        break
      }
    }
    await exited
    expect(killedAt).toBeGreaterThan(0)

    const { store, problem } = openHistoryStore(home.home)
    try {
      expect(problem).toBeNull()
      const stored = store.load(sessionId)!
      let characters = 0
      for (const entry of stored.entries.map(decodeEntry)) {
        if (entry.kind !== 'agent_message') continue
        for (const block of entry.content) if (block.type === 'text' && typeof block.text === 'string') characters += block.text.length
      }
      const secondBefore = [...samples].reverse().find((s) => s.at <= killedAt - 1_000)!
      const last = samples[samples.length - 1]!
      // Killed mid-flood: the stream was still growing in its last second.
      expect(last.characters).toBeGreaterThan(secondBefore.characters)
      expect(last.characters).toBeLessThan(80 * 300 * 5)
      expect(characters).toBeGreaterThanOrEqual(secondBefore.characters)
      expect(characters).toBeLessThanOrEqual(last.characters + 300 * 5 * 4)
    } finally {
      store.dispose()
    }
  })
})

/**
 * The hostile-agent attacks at their big sizes (issue 13): `npm run hostile [-- --scale 0.1]`. Prints
 * figures (inputs, time, main's heap and RSS growth, what survived), asserts nothing: the CI-sized suite
 * in test/integration/hostile/ does that.
 */
import { performance } from 'node:perf_hooks'
import { createBosunServices } from '../../main/app/create-services'
import type { BosunServices } from '../../main/app/services'
import type { EventSink } from '../../common/contract'
import { createAnswerValidator } from '../../main/elicitation/answer-validator'
import { checkDraft, parseFormSchema } from '../../renderer/components/elicitation/validate'
import { parseRequestedSchema } from '../../common/elicitation/schema'
import { hostileAgentCommand } from '../agents/command'
import { createTestHome } from '../support/bosun-home'
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { startWebHost, type WebHost } from '../../main/web/server'
import { createMemoryLogger } from '../../main/base/log'
import { WS_PATH } from '../../common/wire'

const scaleArg = process.argv.indexOf('--scale')
const scale = scaleArg >= 0 ? Number(process.argv[scaleArg + 1]) : 1
const n = (big: number) => Math.max(1, Math.round(big * scale))

interface Figure {
  attack: string
  inputs: number
  ms: number
  heapMB: number
  rssMB: number
  note: string
}
const figures: Figure[] = []

async function run(attack: string, mode: string, count: number, body: (services: BosunServices, sessionId: string, events: { count: number }) => Promise<string>): Promise<void> {
  const home = createTestHome([{ id: 'hostile', name: 'Hostile', scenario: 'basic', command: hostileAgentCommand(mode, { count }) }])
  const events = { count: 0 }
  const sink: EventSink = { emit: () => void events.count++ }
  const services = await createBosunServices({ home: home.home, host: 'web', appVersion: 'bench', events: sink, limits: { sessionCallTimeoutMs: 600_000 } })
  try {
    global.gc?.()
    const heap0 = process.memoryUsage()
    const t0 = performance.now()
    const created = await services.handlers.newSession({ agentId: 'hostile', cwd: home.workspace })
    if (!created.ok) throw new Error(created.error.message)
    const note = await body(services, created.value.sessionId, events)
    const ms = performance.now() - t0
    global.gc?.()
    const heap1 = process.memoryUsage()
    const snapshot = await services.handlers.getSnapshot(undefined)
    figures.push({
      attack,
      inputs: count,
      ms: Math.round(ms),
      heapMB: Math.round((heap1.heapUsed - heap0.heapUsed) / 1e5) / 10,
      rssMB: Math.round((heap1.rss - heap0.rss) / 1e5) / 10,
      note: `${note}; snapshot ${snapshot.ok ? `ok (${Math.round(JSON.stringify(snapshot.value).length / 1024)} KB)` : 'FAILED'}; ${events.count} events`,
    })
  } finally {
    await services.dispose()
    home.cleanup()
  }
}

/** Cancels until the turn is over (a flood keeps arriving after the first cancel). */
async function cancelUntilDone(services: BosunServices, sessionId: string, turn: Promise<unknown>): Promise<void> {
  let done = false
  void turn.finally(() => (done = true))
  while (!done) {
    await services.handlers.cancel({ sessionId })
    await Promise.race([turn, new Promise((resolve) => setTimeout(resolve, 50))])
  }
}

const prompt = (services: BosunServices, sessionId: string) => services.handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'go' }] })

// Output without end (below), with a page of the browser host open that cannot keep up (test/bench/slow-page.ts, its own
// process): what main holds for it, and how often it had to reconnect and reload. `--page` runs only this;
// `--page-kb-per-ms 2` (default) is how fast the page applies.
const pageArg = process.argv.indexOf('--page-kb-per-ms')
const pageKbPerMs = pageArg >= 0 ? Number(process.argv[pageArg + 1]) : 2
async function endlessWithPage(): Promise<void> {
  const home = createTestHome([{ id: 'hostile', name: 'Hostile', scenario: 'basic', command: hostileAgentCommand('endless', { count: 1_000 }) }])
  let services: BosunServices | undefined
  const host = await startWebHost({
    home: home.home,
    rendererDir: home.workspace,
    log: createMemoryLogger(),
    createServices: async (integration) => (services = await createBosunServices({ ...integration, limits: { sessionCallTimeoutMs: 600_000 } })),
  })
  const tsxLoader = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
  const page = spawn(process.execPath, ['--import', tsxLoader, join(dirname(fileURLToPath(import.meta.url)), 'slow-page.ts'), `ws://127.0.0.1:${host.port}${WS_PATH}?token=${host.token}`, host.origin, String(pageKbPerMs)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  page.stdout.setEncoding('utf8').on('data', (text: string) => (out += text))
  try {
    global.gc?.()
    const rss0 = process.memoryUsage().rss
    let maxRss = rss0
    let maxHeld = 0
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, process.memoryUsage().rss)
      const views = (host as Partial<WebHost>).views?.() ?? []
      maxHeld = Math.max(maxHeld, ...views.map((v) => v.inFlight + v.held + v.buffered))
    }, 50)
    const t0 = performance.now()
    const created = await services!.handlers.newSession({ agentId: 'hostile', cwd: home.workspace })
    if (!created.ok) throw new Error(created.error.message)
    const turn = await prompt(services!, created.value.sessionId)
    const ms = performance.now() - t0
    clearInterval(sampler)
    const exited = new Promise((resolve) => page.on('close', resolve))
    page.kill('SIGTERM')
    await exited
    const seen = JSON.parse(out.trim().split('\n').pop() || '{}') as Record<string, number>
    figures.push({
      attack: `output without end, a page open that applies ${pageKbPerMs} MB/s`,
      inputs: 1_000,
      ms: Math.round(ms),
      heapMB: 0,
      rssMB: Math.round((maxRss - rss0) / 1e5) / 10,
      note:
        `turn ${turn.ok ? turn.value.stopReason : 'failed'}; max RSS growth (not heap) in rssMB; main held for the page at most ${Math.round(maxHeld / 1e5) / 10} MB; ` +
        `page: ${seen.connects} connects, ${seen.messages} messages, ${seen.mib} MiB read, ${seen.merged} merged, ${seen.whole} whole`,
    })
  } finally {
    page.kill('SIGKILL')
    await host.dispose()
    home.cleanup()
  }
}
if (process.argv.includes('--page')) {
  await endlessWithPage()
  console.table(figures)
  process.exit(0)
}

await run('permission flood', 'permission-flood', n(20_000), async (services, sessionId) => {
  const turn = prompt(services, sessionId)
  await new Promise((resolve) => setTimeout(resolve, 200))
  await cancelUntilDone(services, sessionId, turn)
  return `every request answered`
})
await run('elicitation flood (URL + form)', 'elicitation-flood', n(10_000), async (services, sessionId) => {
  const turn = prompt(services, sessionId)
  await new Promise((resolve) => setTimeout(resolve, 200))
  await cancelUntilDone(services, sessionId, turn)
  return `every request answered`
})
await run('bad lines', 'garbage', n(1_000_000), async (services, sessionId) => {
  const turn = await prompt(services, sessionId)
  return `turn ${turn.ok ? turn.value.stopReason : 'failed'}`
})
await run('deep rawInput (levels)', 'deep-raw', n(100_000), async (services, sessionId) => {
  const turn = await prompt(services, sessionId)
  return `turn ${turn.ok ? turn.value.stopReason : 'failed'}`
})
await run('early updates before session/new answers', 'early-flood', n(1_000_000), async () => 'session created')
await run('requests Bosun does not serve (1 KB each)', 'request-flood', n(200_000), async (services, sessionId) => {
  const turn = await prompt(services, sessionId)
  return `turn ${turn.ok ? turn.value.stopReason : 'failed'}, every request answered`
})
await run('notifications nobody handles (1 KB each)', 'notification-flood', n(1_000_000), async (services, sessionId) => {
  const turn = await prompt(services, sessionId)
  return `turn ${turn.ok ? turn.value.stopReason : 'failed'}`
})
// Chunks of 1,000 characters without end, until the session's limit (256 MiB) stops the turn.
await run('output without end (inputs: chunk size)', 'endless', 1_000, async (services, sessionId) => {
  const turn = await prompt(services, sessionId)
  const state = await services.handlers.getSnapshot(undefined)
  const session = state.ok ? state.value.sessions.find((s) => s.sessionId === sessionId) : undefined
  return `turn ${turn.ok ? turn.value.stopReason : 'failed'}; ${session?.cannotContinue ? 'session full' : 'NOT STOPPED'}`
})

// Agent patterns: a whole 100-field form of catastrophic patterns, validated in main and in the renderer.
{
  const properties: Record<string, unknown> = {}
  const answer: Record<string, string> = {}
  for (let i = 0; i < 100; i++) {
    properties[`f${i}`] = { type: 'string', pattern: ['^(a+)+$', '(a|a)*c', '(x+x+)+y', '^(\\w+\\s?)*$'][i % 4] }
    answer[`f${i}`] = 'a'.repeat(10_000) + '!'
  }
  const parsed = parseRequestedSchema({ type: 'object', properties })
  const form = parseFormSchema({ type: 'object', properties })
  if (!parsed.ok || !form.ok) throw new Error('form refused')
  const validator = createAnswerValidator()
  for (const [attack, validate] of [
    ['100 catastrophic patterns, main (per submit)', () => validator.validate(parsed.schema, answer)],
    ['100 catastrophic patterns, renderer (per keystroke)', () => checkDraft(form.schema, answer)],
  ] as const) {
    validate()
    const rounds = 20
    const t0 = performance.now()
    for (let i = 0; i < rounds; i++) validate()
    figures.push({ attack, inputs: 100 * rounds, ms: Math.round(((performance.now() - t0) / rounds) * 10) / 10, heapMB: 0, rssMB: 0, note: 'ms per whole form, 10,000-character answers' })
  }
}

console.log(`hostile agent, big sizes (scale ${scale})`)
console.table(figures)
process.exit(0)

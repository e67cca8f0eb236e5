/**
 * The near-miss corpus (test/fixtures/permissions/near-miss-corpus.ts) through the real broker and the real
 * rule store on disk, in both wire shapes: the person answers "Always allow" to the approved request (or a
 * rule is written into the rules file by hand), the rules are reloaded from disk, then the probe is sent.
 * A `rule` probe must be answered by the rule; an `ask` probe must wait for the person.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryLogger } from '../../../main/base/log'
import { PermissionBroker } from '../../../main/permissions/broker'
import { RuleStore, RULES_FILE_NAME } from '../../../main/permissions/rule-store'
import type { PermissionRule } from '../../../main/permissions/rules'
import { nearMissCorpus, type NearMissCase, type RequestSpec, type Sandbox } from '../../fixtures/permissions/near-miss-corpus'
import { FakeConnection, recordingSink, standardOptions } from './fakes'

let root: string
let box: Sandbox
let corpus: NearMissCase[]

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-near-miss-')))
  box = { proj: join(root, 'proj'), outside: join(root, 'outside') }
  await mkdir(join(box.proj, 'src'), { recursive: true })
  await mkdir(join(box.outside, 'src'), { recursive: true })
  await writeFile(join(box.proj, 'src', 'a.ts'), 'a')
  await writeFile(join(box.outside, 'secret'), 'secret')
  await symlink(box.outside, join(box.proj, 'link'))
  corpus = nearMissCorpus(box)
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const AGENTS = { a: 'agent-a', b: 'agent-b' } as const

function wire(spec: RequestSpec, version: 1 | 2, id: number): Record<string, unknown> {
  const sessionId = spec.session ?? 'A'
  if ('command' in spec) return { sessionId, title: 'Run this command?', subject: { type: 'command', ...spec.command }, options: standardOptions }
  const toolCall = { toolCallId: `call-${id}`, ...spec.toolCall }
  return version === 1 ? { sessionId, toolCall, options: standardOptions } : { sessionId, title: 'Approve?', subject: { type: 'tool_call', toolCall }, options: standardOptions }
}

async function run(c: NearMissCase, version: 1 | 2, home: string): Promise<{ answeredByRule: boolean; rules: readonly PermissionRule[] }> {
  let store = new RuleStore(home, createMemoryLogger())
  if (c.seed) {
    const seeded = { ruleId: 'seed', agentId: AGENTS.a, agentName: 'Agent A', cwd: box.proj, decision: 'allow_always', label: 'hand-written', createdAt: 1, ...c.seed(box) }
    await writeFile(join(home, RULES_FILE_NAME), JSON.stringify({ version: 1, rules: [seeded] }))
  }
  await store.load()
  let stored: unknown
  const { sink } = recordingSink()
  const broker = new PermissionBroker({
    sink,
    sessions: {
      getSession: (_agentId, sessionId) => (sessionId === 'A' || sessionId === 'B' ? { cwd: box.proj } : undefined),
      lookupToolCall: (_s, toolCallId) => (toolCallId === 'known' && stored !== undefined ? { toolKind: 'execute', rawInput: stored } : undefined),
    },
    rules: { list: () => store.list(), add: (rule) => store.add(rule) },
    log: createMemoryLogger(),
  })
  const connections = { a: new FakeConnection(version), b: new FakeConnection(version) }
  broker.attach(connections.a, { agentId: AGENTS.a, agentName: 'Agent A', protocolVersion: version })
  broker.attach(connections.b, { agentId: AGENTS.b, agentName: 'Agent B', protocolVersion: version })
  try {
    if (c.approved) {
      const answer = connections[c.approved.agent ?? 'a'].request(1, wire(c.approved, version, 1))
      const [pending] = broker.pending()
      expect(pending, 'the approved request waits for the person').toBeDefined()
      expect(broker.respond(pending!.requestId, 'always')).toMatchObject({ ok: true })
      expect(await answer).toEqual({ result: { outcome: { outcome: 'selected', optionId: 'always' } } })
      await store.flush()
      expect(store.list(), 'one rule was remembered').toHaveLength(1)
    }
    // What is on disk is what applies (session-scoped rules live in memory only).
    if (!store.list().some((r) => r.sessionId)) {
      store = new RuleStore(home, createMemoryLogger())
      await store.load()
    }
    stored = 'storedRawInput' in c.probe ? c.probe.storedRawInput : undefined
    const probe = connections[c.probe.agent ?? 'a'].request(2, wire(c.probe, version, 2))
    const waiting = broker.pending()
    if (waiting.length > 0) broker.respond(waiting[0]!.requestId, null)
    const result = (await probe).result as { outcome: { outcome: string; optionId?: string } }
    const answeredByRule = waiting.length === 0
    if (answeredByRule) expect(result.outcome).toEqual({ outcome: 'selected', optionId: 'allow' })
    return { answeredByRule, rules: store.list() }
  } finally {
    broker.dispose()
    store.dispose()
  }
}

describe('near-miss corpus through the broker and the rule store', () => {
  it('is large and covers every class in both wire shapes', () => {
    const runs = corpus.flatMap((c) => (c.versions ?? [1, 2]).map((v) => ({ c, v })))
    expect(runs.length).toBeGreaterThanOrEqual(200)
    expect(runs.filter((r) => r.c.expect === 'ask').length).toBeGreaterThanOrEqual(100)
    expect(new Set(runs.map((r) => r.v))).toEqual(new Set([1, 2]))
    expect(new Set(corpus.map((c) => c.klass))).toEqual(
      new Set(['command', 'argv', 'separator', 'path', 'second-path', 'patch', 'symlink', 'dotdot', 'fetch', 'tool', 'unknown-field', 'scope', 'command-subject']),
    )
  })

  it('answers no must-not-match request by a rule, and every should-match one', async () => {
    const wrong: string[] = []
    let n = 0
    for (const c of corpus) {
      for (const version of c.versions ?? [1, 2]) {
        const home = join(root, `home-${n++}`)
        await mkdir(home)
        const { answeredByRule } = await run(c, version, home)
        if (answeredByRule !== (c.expect === 'rule')) wrong.push(`v${version} [${c.klass}] ${c.name}: ${answeredByRule ? 'answered by the rule' : 'asked'}, expected ${c.expect}`)
      }
    }
    expect(wrong).toEqual([])
  })
})

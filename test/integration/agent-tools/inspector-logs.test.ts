import { afterEach, expect, it } from 'vitest'
import { REDACTED } from '../../../main/agents-tools/redaction'
import { agentToolsCalls, agentToolsEvents } from '../../../common/contract/agent-tools'
import { createCallClient } from '../../../main/web/dispatch'
import { must, startHarness, type Harness } from './harness'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

it('the inspector shows the initialize exchange with latency, filters by method and session, exports and clears', async () => {
  harness = await startHarness([{ id: 's', scenario: 'basic', v2: true, protocolVersion: 2 }])
  must(await harness.tools.handlers.watchInspector({ agentId: 's', watching: true }))
  const sessionId = must(await harness.newSession('s'))
  const event = await harness.sink.next('inspectorMessages', (p) => p.agentId === 's' && p.messages.some((m) => m.method === 'initialize' && m.direction === 'in'))
  expect(event.messages.length).toBeGreaterThan(0)
  expect(() => agentToolsEvents.inspectorMessages.payload.parse(event)).not.toThrow()

  const { messages } = must(await harness.tools.handlers.listInspectorMessages({ agentId: 's', method: 'initialize' }))
  const request = messages.find((m) => m.direction === 'out' && m.kind === 'request')!
  const response = messages.find((m) => m.direction === 'in' && m.kind === 'response')!
  expect(request).toMatchObject({ method: 'initialize', message: { method: 'initialize', params: { protocolVersion: 2 } } })
  expect(request.latencyMs).toBeUndefined()
  expect(response.id).toBe(request.id)
  expect(response.latencyMs).toBe(response.time - request.time)
  expect(response.latencyMs).toBeGreaterThanOrEqual(0)
  expect(response.bytes).toBeGreaterThan(0)
  expect(response.seq).toBeGreaterThan(request.seq)

  // The session/new response carries the session id (from its result) and the request's method.
  const listed = must(await harness.tools.handlers.listInspectorMessages({ agentId: 's', sessionId }))
  expect(() => agentToolsCalls.listInspectorMessages.output.parse(listed)).not.toThrow()
  const bySession = listed.messages
  expect(bySession.some((m) => m.kind === 'response' && m.method === 'session/new')).toBe(true)
  expect(bySession.every((m) => m.sessionId === sessionId)).toBe(true)
  expect(must(await harness.tools.handlers.listInspectorMessages({ agentId: 's', limit: 1 })).messages).toHaveLength(1)

  const exported = must(await harness.tools.handlers.exportInspector({ agentId: 's' }))
  expect(exported.fileName).toMatch(/^bosun-inspector-s-.*\.jsonl$/)
  const lines = exported.content.trim().split('\n').map((l) => JSON.parse(l) as { method?: string })
  expect(lines.some((l) => l.method === 'initialize')).toBe(true)

  must(await harness.tools.handlers.clearInspector({ agentId: 's' }))
  expect(must(await harness.tools.handlers.listInspectorMessages({ agentId: 's' })).messages).toEqual([])
})

it('stderr streams as agentLog events and the log tail is readable; an echoed secret is redacted in both and in the inspector', async () => {
  const secret = 'sk-echoed-secret-9876'
  harness = await startHarness([{ id: 'e', envAgentArgs: ['--echo-secret'], secretEnv: ['API_KEY'], protocolVersion: 1 }], { 'e:API_KEY': secret })
  must(await harness.tools.handlers.watchInspector({ agentId: 'e', watching: true }))
  must(await harness.newSession('e'))
  await harness.sink.next('agentLog', (p) => p.agentId === 'e' && p.text.includes('using key'))
  await harness.sink.next('inspectorMessages', (p) => p.agentId === 'e' && p.messages.some((m) => m.method === 'session/update'))
  const logText = harness.sink.of('agentLog').filter((p) => p.agentId === 'e').map((p) => p.text).join('')
  expect(logText).toContain('env-agent ready')
  expect(logText).toContain(`using key ${REDACTED}`)

  const tail = must(await harness.tools.handlers.getAgentLog({ agentId: 'e' }))
  expect(tail.truncated).toBe(false)
  expect(tail.text).toContain(`using key ${REDACTED}`)
  const small = must(await harness.tools.handlers.getAgentLog({ agentId: 'e', maxBytes: 40 }))
  expect(small.truncated).toBe(true)
  expect(small.text.length).toBeLessThanOrEqual(40)

  const update = must(await harness.tools.handlers.listInspectorMessages({ agentId: 'e', method: 'session/update' })).messages[0]!
  expect(JSON.stringify(update.message)).toContain(`key=${REDACTED}`)
  expect(JSON.stringify(harness.sink.events)).not.toContain(secret)
  expect(JSON.stringify(must(await harness.tools.handlers.exportInspector({ agentId: 'e' })))).not.toContain(secret)
})

it('a secret an agent prints before dying is redacted in the check result and in failures', async () => {
  const secret = 'sk-dying-secret-5555'
  harness = await startHarness([{ id: 'd', envAgentArgs: ['--fail-at-start'], secretEnv: ['API_KEY'], protocolVersion: 1 }], { 'd:API_KEY': secret })
  const check = must(await harness.tools.handlers.checkAgentConnection({ agentId: 'd' }))
  expect(check).toMatchObject({ ok: false, error: { kind: 'agent-exited' } })
  expect(check.error?.stderrTail).toContain(`fatal: rejected key ${REDACTED}`)
  expect(JSON.stringify(check)).not.toContain(secret)

  const failed = await harness.tools.handlers.listAuthMethods({ agentId: 'd' })
  expect(failed.ok).toBe(false)
  expect(JSON.stringify(failed)).toContain(REDACTED)
  expect(JSON.stringify(failed)).not.toContain(secret)
})

it('sends inspector events only while an inspector view watches the agent', async () => {
  harness = await startHarness([{ id: 'w', scenario: 'basic', protocolVersion: 1 }])
  const h = harness
  const sessionId = must(await h.newSession('w'))
  const connection = must(await h.connect('w')).connection
  const prompt = (text: string) => connection.prompt(sessionId, [{ type: 'text', text }])
  const promptSeqs = async () =>
    must(await h.tools.handlers.listInspectorMessages({ agentId: 'w', method: 'session/prompt' })).messages.filter((m) => m.kind === 'request').map((m) => m.seq)
  const sentSeqs = () => new Set(h.sink.of('inspectorMessages').filter((p) => p.agentId === 'w').flatMap((p) => p.messages.map((m) => m.seq)))

  // Nobody watches yet: recorded (listable), never sent.
  await prompt('diff')
  const [first] = await promptSeqs()
  h.tools.flush()
  must(await h.tools.handlers.watchInspector({ agentId: 'w', watching: true }))
  await prompt('diff')
  const second = (await promptSeqs())[1]!
  await h.sink.next('inspectorMessages', (p) => p.messages.some((m) => m.seq === second))
  must(await h.tools.handlers.watchInspector({ agentId: 'w', watching: false }))
  await prompt('diff')
  const third = (await promptSeqs())[2]!
  // Whatever is queued goes out now, while nobody watches (so it is dropped, not held for a later watcher).
  h.tools.flush()
  must(await h.tools.handlers.watchInspector({ agentId: 'w', watching: true }))
  await prompt('diff')
  const fourth = (await promptSeqs())[3]!
  await h.sink.next('inspectorMessages', (p) => p.messages.some((m) => m.seq === fourth))
  const sent = sentSeqs()
  expect(sent.has(first!)).toBe(false)
  expect(sent.has(second)).toBe(true)
  expect(sent.has(third)).toBe(false)
  expect(sent.has(fourth)).toBe(true)
})

it('a watch belongs to the page that asked: a page counts once, and its watch ends when it leaves', async () => {
  harness = await startHarness([{ id: 'w', scenario: 'basic', protocolVersion: 1 }])
  const h = harness
  const sessionId = must(await h.newSession('w'))
  const connection = must(await h.connect('w')).connection
  const events = () => h.sink.of('inspectorMessages').filter((p) => p.agentId === 'w').length
  /** Whether a prompt's messages were sent as events (everything queued goes out, or is dropped, before the answer). */
  const streams = async () => {
    h.tools.flush()
    const before = events()
    await connection.prompt(sessionId, [{ type: 'text', text: 'diff' }])
    // Listed: every message of the prompt has been recorded.
    must(await h.tools.handlers.listInspectorMessages({ agentId: 'w' }))
    h.tools.flush()
    return events() > before
  }
  const tabA = createCallClient()
  const tabB = createCallClient()
  const watch = (tab: ReturnType<typeof createCallClient>, watching: boolean) => h.tools.handlers.watchInspector({ agentId: 'w', watching }, tab.client)

  // A page that asks twice (a double mount) and stops once does not watch any more.
  must(await watch(tabA, true))
  must(await watch(tabA, true))
  must(await watch(tabA, false))
  expect(await streams()).toBe(false)

  // Two pages watch; one closes while watching: the other still gets the events.
  must(await watch(tabA, true))
  must(await watch(tabA, true))
  must(await watch(tabB, true))
  tabB.leave()
  expect(await streams()).toBe(true)
  // The last one closes without saying it stops watching: nothing streams any more.
  tabA.leave()
  expect(await streams()).toBe(false)
  // A watch asked after its page left ends at once; a new page watches as before.
  must(await watch(tabA, true))
  expect(await streams()).toBe(false)
  const tabC = createCallClient()
  must(await watch(tabC, true))
  expect(await streams()).toBe(true)
  // Only defined agents are watched.
  expect(await h.tools.handlers.watchInspector({ agentId: 'nobody', watching: true }, tabC.client)).toMatchObject({ ok: false, error: { kind: 'not-found' } })
})

/**
 * Request-scoped elicitations through the composition root (G12): the connection tells the broker which of Bosun's
 * requests are still waiting on the agent, so a `requestId` naming none of them is refused, and one naming the
 * session/prompt the turn answers is shown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Scenario } from '../../agents/scenario'
import { agentText } from '../../support/client-reports'
import { must, servicesPerTest } from '../../support/services'

const start = servicesPerTest()
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const form = { mode: 'form', message: 'Pick a workspace.', requestedSchema: { type: 'object', properties: { ws: { type: 'string' } } } }

function scenarioFile(scenario: Scenario): string {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-scenario-'))
  dirs.push(dir)
  const file = join(dir, 'scenario.json')
  writeFileSync(file, JSON.stringify(scenario))
  return file
}

describe('a request-scoped elicitation through the services', () => {
  it('naming a request Bosun is not waiting on is refused -32602, and nothing is shown', async () => {
    const scenario = scenarioFile({ prompts: { bogus: [{ type: 'elicitation', params: { sessionId: null, requestId: 'bootstrap-1', ...form } }] } })
    const { handlers, workspace, sink } = await start([{ id: 'eli', name: 'Eli', scenario }])
    const { sessionId } = must(await handlers.newSession({ agentId: 'eli', cwd: workspace }))
    must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'bogus' }] }))
    const text = agentText(must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!)
    expect(text).toContain('elicitation response: {"error":{"code":-32602')
    expect(text).toContain('bootstrap-1')
    expect(sink.of('requestScopedElicitation')).toEqual([])
  })

  it('naming the session/prompt the turn answers is shown, and the answer reaches the agent', async () => {
    const scenario = scenarioFile({ prompts: { scoped: [{ type: 'elicitation', params: { sessionId: null, requestId: '{promptRequestId}', ...form } }] } })
    const { handlers, workspace, sink } = await start([{ id: 'eli', name: 'Eli', scenario }])
    const { sessionId } = must(await handlers.newSession({ agentId: 'eli', cwd: workspace }))
    const turn = handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'scoped' }] })
    const shown = await sink.next('requestScopedElicitation', (e) => e.change === 'added')
    must(await handlers.respondElicitation({ elicitationRequestId: shown.elicitation.elicitationRequestId, action: 'accept', content: { ws: 'alpha' } }))
    must(await turn)
    expect(agentText(must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!)).toContain('elicitation response: {"action":"accept","content":{"ws":"alpha"}}')
  })
})

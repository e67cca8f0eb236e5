/**
 * ACP has no "URL elicitation required" error (checklist B12, K3: MCP's -32042 was removed from ACP on 2026-07-01).
 * An agent that answers a prompt with it, a URL in its data, gets an ordinary error: nothing is opened or offered to
 * open, no elicitation appears, the prompt is not sent again, and the session goes on.
 */
import { describe, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()

describe.each([
  ['v1', false],
  ['v2', true],
])('-32042 from a %s agent', (_label, v2) => {
  it('is a plain error: no URL opened or offered, no elicitation, no retry, and the next prompt works', async () => {
    const { handlers, sink, workspace } = await startServices([{ id: 'agent', name: 'Agent', scenario: 'url-required-error', v2 }])
    const { sessionId } = must(await handlers.newSession({ agentId: 'agent', cwd: workspace }))
    const result = await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'sign-in' }] })
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ kind: 'rpc-error', code: -32042, message: 'URL elicitation required' }) })
    const state = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(state.elicitations).toEqual({})
    expect(must(await handlers.listRequestScopedElicitations(undefined))).toEqual([])
    // The URL reached nothing that opens or offers links: no event names it but the prompt's own error.
    const named = sink.events.filter((e) => JSON.stringify(e.payload).includes('evil.example')).map((e) => e.name)
    expect(named.filter((name) => name !== 'sessionActions')).toEqual([])
    // In the session, only the prompt's outcome carries it (the error's data, shown as data).
    const carrying = sink
      .of('sessionActions')
      .flatMap((b) => b.actions)
      .filter((a) => JSON.stringify(a).includes('evil.example'))
    expect(carrying.length).toBeGreaterThan(0)
    for (const action of carrying) expect(['prompt_rejected', 'turn_ended']).toContain(action.type)
    // Sent once: the error is no reason to send the prompt again.
    const prompts = must(await handlers.listInspectorMessages({ agentId: 'agent' })).messages.filter((m) => m.direction === 'out' && m.method === 'session/prompt')
    expect(prompts).toHaveLength(1)
    must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'hello' }] }))
  })
})

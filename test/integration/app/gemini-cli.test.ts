/**
 * Gemini CLI (`gemini --acp`) through the composition root, against the scripted agent playing its shapes
 * (test/fixtures/scenarios/gemini-*.json): what it sends where it strays from what other agents do.
 */
import { describe, expect, it } from 'vitest'
import type { MessageEntry, SessionState } from '../../../common/session/types'
import { must, servicesPerTest, type TestServices } from '../../support/services'

const startServices = servicesPerTest()

async function stateOf({ handlers }: TestServices, sessionId: string): Promise<SessionState> {
  return must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
}

const text = (prompt: string) => [{ type: 'text' as const, text: prompt }]
const texts = (state: SessionState, kind: MessageEntry['kind']) =>
  state.entries
    .filter((e): e is MessageEntry => e.kind === kind)
    .map((e) => e.content.map((b) => (b.type === 'text' ? (b as { text: string }).text : '')).join(''))

describe('Gemini CLI', () => {
  it('session/load answered before its history is streamed: continuing a session shows the history once', async () => {
    const services = await startServices([{ id: 'gemini', name: 'Gemini CLI', scenario: 'gemini-load' }])
    const { handlers, workspace } = services
    const { sessionId } = must(await handlers.newSession({ agentId: 'gemini', cwd: workspace }))
    must(await handlers.prompt({ sessionId, prompt: text('Add a greeting to hello.txt') }))
    const before = await stateOf(services, sessionId)

    // The agent restarts: the next prompt reattaches the session by session/load, which Gemini answers at once
    // and follows with the whole history.
    must(await handlers.restartAgent({ agentId: 'gemini' }))
    must(await handlers.prompt({ sessionId, prompt: text('Go on') }))
    const after = await stateOf(services, sessionId)

    expect(texts(after, 'user_message')).toEqual(['Add a greeting to hello.txt', 'Go on'])
    expect(texts(after, 'agent_message')).toEqual(['I added the greeting.', 'Continuing.'])
    expect(texts(after, 'agent_thought')).toEqual(texts(before, 'agent_thought'))
    expect(after.entries.filter((e) => e.kind === 'tool_call')).toHaveLength(1)
  })
})

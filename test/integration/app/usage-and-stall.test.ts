/**
 * Issue 14 §5 through the composition root: a real scripted agent's `usage_update` (v1 and v2) reaches main's
 * session state and history as the meter shows it, and `appInfo` carries the stall threshold tests shorten.
 */
import { describe, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()

describe.each([
  ['v1', false],
  ['v2', true],
])('usage_update from the %s scripted agent', (_label, v2) => {
  it('is kept in the session: counts, cost and the extra fields', async () => {
    const { handlers, workspace, sink } = await startServices([{ id: 'scripted', name: 'Scripted', scenario: 'e2e-meter', v2 }])
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    await sink.next('sessionAdded')
    expect(must(await handlers.prompt({ sessionId, prompt: [{ type: 'text', text: 'usage' }] })).stopReason).toBe('end_turn')
    const session = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
    expect(session.usage).toEqual({ used: 48_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' }, extra: { _meta: { vendor: 'scripted' } } })
  })
})

describe('appInfo', () => {
  it('carries the stall threshold only when the host shortened it', async () => {
    const plain = await startServices([])
    expect(must(await plain.handlers.appInfo(undefined))).not.toHaveProperty('stallNoticeMs')
  })

  it('says limits.stallNoticeMs', async () => {
    const short = await startServices([], undefined, { limits: { stallNoticeMs: 1500 } })
    expect(must(await short.handlers.appInfo(undefined))).toMatchObject({ name: 'Bosun', stallNoticeMs: 1500 })
  })
})

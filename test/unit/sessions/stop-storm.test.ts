/**
 * Stop pressed without end (a stuck key, a renderer that sends it in a loop): the agent gets one `session/cancel` a
 * second at most, not one per press, and the offer to stop the agent still comes the watchdog's time after the first
 * Stop (each press used to put it off again).
 */
import { expect, it } from 'vitest'
import { CANCEL_RESEND_MS } from '../../../main/sessions/sessions-service'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

it('sends one session/cancel a second for a storm of Stops, and arms the Stop watchdog once', async () => {
  const { connection } = fakeAgentConnection()
  const cancelled: string[] = []
  connection.cancel = (acpSessionId: string) => void cancelled.push(acpSessionId)
  let now = 0
  const armed: number[] = []
  const scheduler = {
    setTimeout: (_fn: () => void, ms: number) => armed.push(ms),
    clearTimeout: () => undefined,
    now: () => now,
  }
  const service = sessionsOn(connection, { scheduler, stopWatchdogMs: 5_000 })
  const created = await service.newSession('a', '/w')
  if (!created.ok) throw new Error(created.error.message)
  const { sessionId } = created.value
  void service.prompt(sessionId, [{ type: 'text', text: 'go' }])
  for (let i = 0; i < 1_000; i++) expect(service.cancel(sessionId)).toEqual({ ok: true, value: undefined })
  expect(cancelled).toHaveLength(1)
  expect(armed.filter((ms) => ms === 5_000)).toHaveLength(1)
  // A Stop pressed again a second later asks the agent again.
  now += CANCEL_RESEND_MS
  service.cancel(sessionId)
  expect(cancelled).toHaveLength(2)
  expect(armed.filter((ms) => ms === 5_000)).toHaveLength(1)
  service.dispose()
})

/**
 * v1 boolean config values (checklist C3, E13): Bosun advertises `session.configOptions.boolean` in its v1
 * initialize and sends boolean values only to an agent that saw it; a v1 agent that answered a v2 offer did not.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { BosunError } from '../../../main/base/errors'
import { killAll, startAgent } from './harness'

afterEach(async () => {
  await killAll()
})

describe('v1 boolean config options', () => {
  it('offered v1: advertised in initialize, and a boolean value is sent', async () => {
    const agent = startAgent('session-defaults-v1')
    await agent.connection.initialize({ preferredVersion: 1 })
    const initialize = JSON.parse(/INITIALIZE (.*)/.exec(agent.stderr())![1]!) as { clientCapabilities: { session?: unknown } }
    expect(initialize.clientCapabilities.session).toEqual({ configOptions: { boolean: {} }, notices: {}, compaction: {} })
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    const options = await agent.connection.setConfigOption(sessionId, 'run-tests', true)
    expect(options).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'run-tests', currentValue: true })]))
    const set = JSON.parse(/SET-CONFIG (.*)/.exec(agent.stderr())![1]!) as Record<string, unknown>
    expect(set).toEqual({ sessionId, configId: 'run-tests', value: true, type: 'boolean' })
  })

  it('a v1 agent that answered our v2 offer never saw the capability: no boolean value is sent', async () => {
    const agent = startAgent('session-defaults-v1')
    const handshake = await agent.connection.initialize()
    expect(handshake).toMatchObject({ offeredVersion: 2, protocolVersion: 1 })
    const { sessionId } = await agent.connection.newSession({ cwd: '/tmp' })
    const refused = await agent.connection.setConfigOption(sessionId, 'run-tests', true).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(BosunError)
    expect((refused as BosunError).kind).toBe('invalid-argument')
    // A select value still goes out.
    await agent.connection.setConfigOption(sessionId, 'model', 'smart')
    expect(agent.stderr()).toContain('"configId":"model"')
    expect(agent.stderr()).not.toContain('"configId":"run-tests"')
  })
})

/**
 * A setting the agent refuses says why: Gemini CLI 0.61.0 answers `session/set_mode` to autoEdit in a folder it does
 * not trust with -32603 "Internal error" and the reason only in `data.details` (captured traffic); the person saw
 * "Changing the mode failed: Internal error".
 */
import { describe, expect, it } from 'vitest'
import { ErrorCodes } from 'vscode-jsonrpc/node.js'
import { RpcError } from '../../../main/base/errors'
import { fakeAgentConnection, sessionsOn } from '../../support/fake-agent-connection'

const untrusted = () => Promise.reject(new RpcError(-32603, 'Internal error', { details: 'Cannot enable privileged approval modes in an untrusted folder.' }))

describe('a setting the agent refuses', () => {
  it("tells the agent's reason from its error's data.details, for a mode, a model and an option", async () => {
    // The first session offers (v1 legacy) modes and models, the second a config option: main sends only what a session offers.
    const offered = [
      {
        modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'autoEdit', name: 'Auto Edit' }] },
        models: { currentModelId: 'auto', availableModels: [{ modelId: 'auto', name: 'Auto' }, { modelId: 'pro', name: 'Pro' }] },
      },
      { configOptions: [{ id: 'effort', name: 'Effort', type: 'select', currentValue: 'low', options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }] }] },
    ]
    let sessions = 0
    const { connection } = fakeAgentConnection({
      newSession: async () => ({ sessionId: `s${++sessions}`, ...offered[sessions - 1], raw: {} }),
      setMode: untrusted,
      setModel: untrusted,
      setConfigOption: untrusted,
    })
    const service = sessionsOn(connection)
    const legacy = await service.newSession('a', '/w')
    const withOption = await service.newSession('a', '/w')
    if (!legacy.ok || !withOption.ok) throw new Error('no session')
    const reason = 'Internal error: Cannot enable privileged approval modes in an untrusted folder.'
    expect(await service.setMode(legacy.value.sessionId, 'autoEdit')).toMatchObject({ ok: false, error: { kind: 'rpc-error', code: -32603, message: reason } })
    expect(await service.setModel(legacy.value.sessionId, 'pro')).toMatchObject({ ok: false, error: { kind: 'rpc-error', message: reason } })
    expect(await service.setConfigOption(withOption.value.sessionId, 'effort', 'high')).toMatchObject({ ok: false, error: { kind: 'rpc-error', message: reason } })
    service.dispose()
  })

  it('keeps an error without details as the agent said it', async () => {
    const { connection } = fakeAgentConnection({
      newSession: async () => ({ sessionId: 's1', modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] }, raw: {} }),
      setMode: () => Promise.reject(new RpcError(-32602, 'Invalid params')),
    })
    const service = sessionsOn(connection)
    const session = await service.newSession('a', '/w')
    if (!session.ok) throw new Error('no session')
    expect(await service.setMode(session.value.sessionId, 'b')).toMatchObject({ ok: false, error: { message: 'Invalid params' } })
    service.dispose()
  })

  it('an agent that closed its input (stdin): the change could not reach it, said so rather than "write EPIPE"', async () => {
    const { connection } = fakeAgentConnection({
      newSession: async () => ({ sessionId: 's1', modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] }, raw: {} }),
      setMode: () => Promise.reject(new RpcError(ErrorCodes.MessageWriteError, 'write EPIPE')),
    })
    const service = sessionsOn(connection)
    const session = await service.newSession('a', '/w')
    if (!session.ok) throw new Error('no session')
    expect(await service.setMode(session.value.sessionId, 'b')).toMatchObject({ ok: false, error: { message: 'The agent closed its input (stdin), so the change could not reach it (write EPIPE).' } })
    service.dispose()
  })
})

import { describe, expect, it, vi } from 'vitest'
import type { CallHandlers } from '../../../common/contract'
import { createMemoryLogger } from '../../../main/base/log'
import { dispatchCall, isCallName } from '../../../main/web/dispatch'

const handlers = (fn: (arg: unknown) => unknown) => new Proxy({}, { get: () => fn }) as unknown as CallHandlers

describe('dispatchCall', () => {
  it('knows only the contract own call names', () => {
    expect(isCallName('appInfo')).toBe(true)
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', '', 42, null]) expect(isCallName(name)).toBe(false)
  })

  it('answers unknown calls and malformed arguments as failure values', async () => {
    const fn = vi.fn()
    const log = createMemoryLogger()
    expect(await dispatchCall('__proto__', undefined, handlers(fn), log)).toMatchObject({ ok: false, error: { kind: 'unknown-call' } })
    expect(await dispatchCall('appInfo', { extra: 1 }, handlers(fn), log)).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } })
    expect(fn).not.toHaveBeenCalled()
  })

  it('treats a handler that returns something other than a CallResult as an internal failure', async () => {
    const log = createMemoryLogger()
    expect(await dispatchCall('appInfo', undefined, handlers(async () => 'oops'), log)).toMatchObject({ ok: false, error: { kind: 'internal' } })
    expect(log.lines.some((l) => l.startsWith('error'))).toBe(true)
  })

  it('catches a synchronous throw too', async () => {
    const result = await dispatchCall('appInfo', undefined, handlers(() => {
      throw new Error('sync')
    }), createMemoryLogger())
    expect(result).toMatchObject({ ok: false, error: { kind: 'internal' } })
  })
})

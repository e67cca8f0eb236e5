/** JoinedRuns: one run per key at a time (asking again joins it), at most `max` keys at once. */
import { describe, expect, it } from 'vitest'
import { Deferred } from '../../../main/base/deferred'
import { ok, type Result } from '../../../main/base/errors'
import { JoinedRuns } from '../../../main/base/joined-runs'

describe('JoinedRuns', () => {
  it('joins a run of the same key, refuses a key past the limit, and makes room when a run ends (or throws)', async () => {
    const runs = new JoinedRuns<number>(2, (max) => `only ${max}`)
    const a = new Deferred<Result<number>>()
    const b = new Deferred<Result<number>>()
    let started = 0
    const start = (d: Deferred<Result<number>>) => () => {
      started++
      return d.promise
    }
    const first = runs.run('a', start(a))
    const joined = runs.run('a', start(new Deferred<Result<number>>()))
    expect(joined).toBe(first)
    void runs.run('b', start(b))
    expect(await runs.run('c', start(new Deferred<Result<number>>()))).toEqual({ ok: false, error: { kind: 'invalid-argument', message: 'only 2' } })
    expect(started).toBe(2)

    a.resolve(ok(1))
    expect(await first).toEqual(ok(1))
    const c = new Deferred<Result<number>>()
    const third = runs.run('c', start(c))
    b.reject(new Error('boom'))
    c.resolve(ok(3))
    expect(await third).toEqual(ok(3))
    // b threw: its key is free again too.
    await expect(runs.run('b', () => Promise.resolve(ok(2)))).resolves.toEqual(ok(2))
  })
})

import { expect, it } from 'vitest'
import { createConcurrencyLimit, LimitBusyError } from '../../../main/base/concurrency-limit'
import { Deferred } from '../../../main/base/deferred'

it('runs at most `max` tasks at once, the rest in order as places free up, and refuses past `maxWaiting`', async () => {
  const limit = createConcurrencyLimit(2, 2)
  const gates = [0, 1, 2, 3].map(() => new Deferred<void>())
  const started: number[] = []
  const runs = gates.map((gate, i) => limit.run(async () => (started.push(i), await gate.promise, i)))
  await Promise.resolve()
  expect(started).toEqual([0, 1])
  expect([limit.running, limit.waiting]).toEqual([2, 2])
  await expect(limit.run(async () => 'late')).rejects.toBeInstanceOf(LimitBusyError)
  gates[1]!.resolve()
  await runs[1]
  await Promise.resolve()
  expect(started).toEqual([0, 1, 2])
  for (const gate of gates) gate.resolve()
  expect(await Promise.all(runs)).toEqual([0, 1, 2, 3])
  expect([limit.running, limit.waiting]).toEqual([0, 0])
})

it('a task whose signal aborts while it waits never runs, and frees its place in the queue', async () => {
  const limit = createConcurrencyLimit(1, 1)
  const gate = new Deferred<void>()
  const first = limit.run(() => gate.promise)
  const controller = new AbortController()
  let ran = false
  const waiting = limit.run(async () => void (ran = true), controller.signal)
  controller.abort(new Error('withdrawn'))
  await expect(waiting).rejects.toThrow('withdrawn')
  expect(limit.waiting).toBe(0)
  const next = limit.run(async () => 'next')
  gate.resolve()
  await first
  expect(await next).toBe('next')
  expect(ran).toBe(false)
})

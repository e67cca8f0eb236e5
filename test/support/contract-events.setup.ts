/** Integration setup: every event a test's services emitted matched the contract's schema. */
import { afterEach, expect } from 'vitest'
import { RecordingSink } from './recording-sink'

afterEach(() => {
  expect(RecordingSink.takeViolations(), 'events that do not match preload/contract').toEqual([])
})

import { spawnSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

/** A Node process that leaves a promise rejected unhandled, with or without main's handler, then says whether it is still running. */
function runWithStrayRejection(handled: boolean) {
  const module = pathToFileURL(resolve('main/base/unhandled.ts')).href
  const script = `
import { logUnhandledRejections } from ${JSON.stringify(module)}
if (${handled}) logUnhandledRejections((message, reason) => console.error('logged: ' + message + ': ' + reason.message))
void Promise.reject(new Error('stray'))
setTimeout(() => console.log('still running'), 50)
`
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 })
}

it('a stray rejection ends a plain Node process, and is logged instead once main’s handler is set', () => {
  const bare = runWithStrayRejection(false)
  expect(bare.status).not.toBe(0)
  expect(bare.stdout).not.toContain('still running')
  const handled = runWithStrayRejection(true)
  expect(handled.status).toBe(0)
  expect(handled.stdout).toContain('still running')
  expect(handled.stderr).toContain('logged: a promise was rejected and nobody handled it (Bosun keeps running): stray')
})

/** A Node process in which an event listener throws, with or without main's handler, then says whether it is still running. */
function runWithThrowingListener(handled: boolean) {
  const unhandled = pathToFileURL(resolve('main/base/unhandled.ts')).href
  const event = pathToFileURL(resolve('main/base/event.ts')).href
  const script = `
import { logUnhandledRejections } from ${JSON.stringify(unhandled)}
import { Emitter } from ${JSON.stringify(event)}
if (${handled}) logUnhandledRejections((message, reason) => console.error('logged: ' + message + ': ' + reason.message))
const emitter = new Emitter()
let after = false
emitter.event(() => { throw new Error('listener broke') })
emitter.event(() => { after = true })
emitter.fire(1)
setTimeout(() => console.log('still running; the next listener ran: ' + after), 50)
`
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 })
}

it('an event listener that throws ends a plain Node process (thrown again, so tests see it), and is logged instead once main’s handler is set', () => {
  const bare = runWithThrowingListener(false)
  expect(bare.status).not.toBe(0)
  expect(bare.stderr).toContain('listener broke')
  expect(bare.stdout).not.toContain('still running')
  const handled = runWithThrowingListener(true)
  expect(handled.status).toBe(0)
  expect(handled.stdout).toContain('still running; the next listener ran: true')
  expect(handled.stderr).toContain('logged: an event listener failed (Bosun keeps running): listener broke')
})

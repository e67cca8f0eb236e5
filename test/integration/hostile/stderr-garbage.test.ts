/**
 * An agent whose stderr is garbage: escape sequences (a window title, colours, clear screen), NUL, carriage returns,
 * invalid UTF-8 and 3,000 bytes of garbage (every byte value, in a fixed order: random bytes could clear the screen, and the
 * earlier lines with it, at random), then its last words with a right-to-left override, before it exits. Bosun's
 * message quoted that line with its escapes ("fatal: \u001b[1mlast\u001b[0m"). The stderr excerpt carried them all
 * to the agent's error banner, the Agents page and Check connection, and two of those showed it raw. Now main
 * hands on the tail as a terminal leaves it. The screens show the hidden and direction-changing characters that
 * are left as markers (unit agent-error-words).
 */
import { expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const start = servicesPerTest()
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/

it("quotes an agent's garbled stderr as a terminal leaves it: no escape sequences or control characters, in the message or the excerpt", async () => {
  const script = String.raw`printf '\033]0;pwned\007\033[31mError: \342\200\256dlrow olleh\000 \377\376 bad\033[0m\r\n\033[2Jcleared\n' >&2; awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%c", (i * 7919 + 13) % 256 }' >&2; printf '\nfatal: \033[1mlast\033[0m \342\200\256gnorw\n' >&2; exit 3`
  const t = await start([{ id: 'garbage', name: 'Garbage', scenario: 'basic', command: { command: '/bin/sh', args: ['-c', script] } }])
  const created = await t.handlers.newSession({ agentId: 'garbage', cwd: t.workspace })
  expect(created.ok).toBe(false)
  const error = !created.ok ? created.error : undefined
  // The direction override stays (the screens mark it); the escapes do not.
  expect(error?.message).toBe('Garbage exited with code 3 while starting. fatal: last \u202Egnorw')
  expect(error?.stderrTail).toContain('Error: \u202Edlrow olleh \uFFFD\uFFFD bad\ncleared\n')
  expect(error?.stderrTail).not.toMatch(CONTROL)
  expect(error?.stderrTail).not.toContain('pwned')
  // The agent's view (banner, Agents page) carries the same.
  const agent = must(await t.handlers.getSnapshot(undefined)).agents.find((a) => a.agentId === 'garbage')
  expect(agent?.error?.message).toBe(error?.message)
  expect(agent?.error?.stderrTail).not.toMatch(CONTROL)
})

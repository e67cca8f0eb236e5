import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Deferred } from '../../../main/base/deferred'
import { createMemoryLogger } from '../../../main/base/log'
import {
  boundDetail,
  CONFIRMATION_LOG_FILE,
  CONFIRMATION_LOG_MAX_BYTES,
  MAX_DETAIL_CHARS,
  ownerConfirmation,
  quoteExact,
  recordConfirmations,
  refuseAllConfirmation,
  serializeConfirmations,
  type ConfirmationAnswer,
  type ConfirmationRequest,
  type ConfirmationService,
} from '../../../main/trust/confirmation'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'bosun-trust-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const request = (message: string, kind: ConfirmationRequest['kind'] = 'agent-start'): ConfirmationRequest => ({
  kind,
  title: 'Start an agent',
  message,
  detail: 'Program: "sh"',
  confirmLabel: 'Start agent',
})

/** A person who answers when the test says so. */
function heldPerson() {
  const asked: { request: ConfirmationRequest; answer: Deferred<ConfirmationAnswer> }[] = []
  const service: ConfirmationService = {
    confirm(r) {
      const answer = new Deferred<ConfirmationAnswer>()
      asked.push({ request: r, answer })
      return answer.promise
    },
  }
  return { asked, service }
}

describe('quoteExact', () => {
  it('shows every character that could hide: quotes, line breaks, bidi overrides, zero-width and non-ASCII', () => {
    expect(quoteExact('npx')).toBe('"npx"')
    expect(quoteExact('a "b" \\c')).toBe('"a \\"b\\" \\\\c"')
    expect(quoteExact('ls\n rm -rf ~')).toBe('"ls\\n rm -rf ~"')
    expect(quoteExact('safe\u202E;hs.evil')).toBe('"safe\\u202e;hs.evil"')
    expect(quoteExact('a\u200Bb\u0000\u001b')).toBe('"a\\u200bb\\u0000\\u001b"')
    expect(quoteExact('é😀')).toBe('"\\u00e9\\u{1f600}"')
  })

  it('boundDetail cuts very long details and says so', () => {
    expect(boundDetail('short')).toBe('short')
    const long = boundDetail('x'.repeat(MAX_DETAIL_CHARS + 5))
    expect(long.startsWith('x'.repeat(MAX_DETAIL_CHARS))).toBe(true)
    expect(long).toContain('5 more characters not shown')
  })
})

describe('host confirmations', () => {
  it('the browser host owner approves; a host without a surface refuses (and logs it)', async () => {
    const log = createMemoryLogger()
    expect(await ownerConfirmation(log).confirm(request('Start?'))).toEqual({ confirmed: true, by: 'owner' })
    expect(await refuseAllConfirmation(log).confirm(request('Start?'))).toEqual({ confirmed: false, by: 'refused' })
    expect(log.lines.some((l) => l.includes('refused without asking (no confirmation surface): agent-start: Start?'))).toBe(true)
  })
})

describe('serializeConfirmations', () => {
  it('shows one question at a time, shares the answer of identical ones, and refuses beyond the waiting bound', async () => {
    const person = heldPerson()
    const serial = serializeConfirmations(person.service, 2)
    const first = serial.confirm(request('one'))
    const firstAgain = serial.confirm(request('one'))
    const second = serial.confirm(request('two'))
    // A third distinct question while two wait: refused at once, never shown.
    expect(await serial.confirm(request('three'))).toEqual({ confirmed: false, by: 'refused' })
    await Promise.resolve()
    expect(person.asked.map((a) => a.request.message)).toEqual(['one'])
    person.asked[0]!.answer.resolve({ confirmed: true, by: 'person' })
    expect(await first).toEqual({ confirmed: true, by: 'person' })
    expect(await firstAgain).toEqual({ confirmed: true, by: 'person' })
    await vi_waitFor(() => person.asked.length === 2)
    expect(person.asked[1]!.request.message).toBe('two')
    person.asked[1]!.answer.resolve({ confirmed: false, by: 'person' })
    expect(await second).toEqual({ confirmed: false, by: 'person' })
  })

  it('a failing surface counts as cancelled, and the next question still gets asked', async () => {
    let calls = 0
    const serial = serializeConfirmations({
      async confirm() {
        calls++
        if (calls === 1) throw new Error('no display')
        return { confirmed: true, by: 'person' }
      },
    })
    expect(await serial.confirm(request('a'))).toEqual({ confirmed: false, by: 'refused' })
    expect(await serial.confirm(request('b'))).toEqual({ confirmed: true, by: 'person' })
  })
})

describe('recordConfirmations', () => {
  it('appends each question and answer to confirmations.jsonl, with who answered', async () => {
    const recorded = recordConfirmations(ownerConfirmation(createMemoryLogger()), {
      home,
      host: 'web',
      log: createMemoryLogger(),
      now: () => new Date('2026-11-23T10:00:00Z'),
    })
    await recorded.confirm(request('Start "A"?'))
    await recorded.flush()
    const lines = (await readFile(join(home, CONFIRMATION_LOG_FILE), 'utf8')).trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toEqual([
      { at: '2026-11-23T10:00:00.000Z', host: 'web', kind: 'agent-start', message: 'Start "A"?', detail: 'Program: "sh"', confirmed: true, by: 'owner' },
    ])
    expect((await stat(join(home, CONFIRMATION_LOG_FILE))).mode & 0o777).toBe(0o600)
  })

  it('rotates the record beyond its bound, keeping one old copy', async () => {
    await writeFile(join(home, CONFIRMATION_LOG_FILE), 'x'.repeat(CONFIRMATION_LOG_MAX_BYTES - 10))
    const recorded = recordConfirmations(refuseAllConfirmation(createMemoryLogger()), { home, host: 'electron', log: createMemoryLogger() })
    await recorded.confirm(request('Turn on?', 'auto-approve'))
    await recorded.flush()
    expect((await stat(join(home, `${CONFIRMATION_LOG_FILE}.1`))).size).toBe(CONFIRMATION_LOG_MAX_BYTES - 10)
    expect(JSON.parse(await readFile(join(home, CONFIRMATION_LOG_FILE), 'utf8'))).toMatchObject({ kind: 'auto-approve', confirmed: false, by: 'refused' })
  })

  it('where a folder is named as the old copy, keeps the newest half of the record and every new answer, and says why once', async () => {
    const record = join(home, CONFIRMATION_LOG_FILE)
    await mkdir(`${record}.1`)
    const old = (n: number) => JSON.stringify({ n, pad: 'p'.repeat(200) }) + '\n'
    let text = ''
    for (let n = 0; text.length < CONFIRMATION_LOG_MAX_BYTES - 500; n++) text += old(n)
    // The last old line fills the record to 20 bytes short of its bound: the first answer rotates it.
    text += JSON.stringify({ n: -1, pad: 'q'.repeat(CONFIRMATION_LOG_MAX_BYTES - 20 - text.length - '{"n":-1,"pad":""}\n'.length) }) + '\n'
    await writeFile(record, text)
    const log = createMemoryLogger()
    const recorded = recordConfirmations(refuseAllConfirmation(createMemoryLogger()), { home, host: 'electron', log })
    for (let i = 0; i < 3; i++) await recorded.confirm(request(`Turn on ${i}?`, 'auto-approve'))
    await recorded.flush()
    const lines = (await readFile(record, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { n?: number; message?: string })
    // Whole lines only: the newest old ones, then the three answers.
    expect(lines.slice(-3).map((l) => l.message)).toEqual(['Turn on 0?', 'Turn on 1?', 'Turn on 2?'])
    expect((await stat(record)).size).toBeLessThanOrEqual(CONFIRMATION_LOG_MAX_BYTES / 2 + 1000)
    expect(lines.length).toBeGreaterThan(100)
    expect((await stat(`${record}.1`)).isDirectory()).toBe(true)
    expect(log.lines.filter((l) => l.includes('cannot record'))).toEqual([])
    expect(log.lines.filter((l) => l.includes(`${record}.1 is a folder`))).toHaveLength(1)
  })
})

/** Awaits a condition that a resolved promise chain makes true (microtasks only, no timers). */
async function vi_waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !condition(); i++) await Promise.resolve()
  expect(condition()).toBe(true)
}

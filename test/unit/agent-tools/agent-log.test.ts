import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LogStream, readLogTail } from '../../../main/agents-tools/agent-log'
import { REDACTED, SecretSet } from '../../../main/agents-tools/redaction'
import { ManualScheduler } from '../agents/manual-scheduler'

describe('LogStream', () => {
  it('coalesces appends into one event per interval', () => {
    const scheduler = new ManualScheduler()
    const events: string[] = []
    const stream = new LogStream(new SecretSet(), scheduler, (t) => events.push(t), { batchMs: 100 })
    stream.append('a\n')
    stream.append('b\n')
    expect(events).toEqual([])
    scheduler.advance(100)
    expect(events).toEqual(['a\nb\n'])
    stream.dispose()
  })

  it('redacts a secret split across two chunks', () => {
    const scheduler = new ManualScheduler()
    const secrets = new SecretSet()
    secrets.set('a', ['sk-split-secret'])
    const events: string[] = []
    const stream = new LogStream(secrets, scheduler, (t) => events.push(t), { batchMs: 100 })
    stream.append('key sk-spl')
    scheduler.advance(100)
    stream.append('it-secret done\n')
    scheduler.advance(100)
    scheduler.advance(100)
    expect(events.join('')).toBe(`key ${REDACTED} done\n`)
    stream.dispose()
  })

  it('bounds each event and says how much was skipped', () => {
    const scheduler = new ManualScheduler()
    const events: string[] = []
    const stream = new LogStream(new SecretSet(), scheduler, (t) => events.push(t), { batchMs: 100, maxEventChars: 100 })
    stream.append('x'.repeat(1000))
    scheduler.advance(100)
    expect(events).toHaveLength(1)
    expect(events[0]).toBe(`[bosun] 900 characters of output skipped\n${'x'.repeat(100)}`)
    stream.dispose()
  })
})

describe('readLogTail', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('reads the tail at a line start, includes the rotated file when short, redacts, and treats a missing file as empty', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bosun-log-'))
    const secrets = new SecretSet()
    secrets.set('a', ['hunter22'])
    const path = join(dir, 'a.log')
    expect(await readLogTail(path, 100, secrets)).toEqual({ text: '', truncated: false })
    writeFileSync(`${path}.1`, 'old line 1\nold line 2\n')
    writeFileSync(path, 'new hunter22\n')
    expect(await readLogTail(path, 1000, secrets)).toEqual({ text: `old line 1\nold line 2\nnew ${REDACTED}\n`, truncated: false })
    expect(await readLogTail(path, 20, secrets)).toEqual({ text: `new ${REDACTED}\n`, truncated: true })
  })
  it('a folder or a FIFO named as the rotated log is no older part (the log is read); a folder as the log itself is named', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bosun-log-'))
    const path = join(dir, 'a.log')
    mkdirSync(`${path}.1`)
    writeFileSync(join(`${path}.1`, 'kept'), 'a person’s file\n')
    writeFileSync(path, 'new line\n')
    expect(await readLogTail(path, 1000, new SecretSet())).toEqual({ text: 'new line\n', truncated: false })
    // A FIFO there is none either (read without waiting on it).
    rmSync(`${path}.1`, { recursive: true })
    execFileSync('mkfifo', [`${path}.1`])
    expect(await readLogTail(path, 1000, new SecretSet())).toEqual({ text: 'new line\n', truncated: false })
    rmSync(path)
    mkdirSync(path)
    await expect(readLogTail(path, 1000, new SecretSet())).rejects.toThrow(
      `The log cannot be kept: ${path} is a folder, and Bosun keeps the agent's log in a file of that name. Move or remove that folder. The log starts again when the agent next starts.`,
    )
  })
})

import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentLogFile } from '../../../main/agents/agent-log-file'
import { createMemoryLogger } from '../../../main/base/log'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-agent-log-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('AgentLogFile', () => {
  it('appends in order, creating the directory', async () => {
    const log = new AgentLogFile(join(dir, 'nested', 'agent.log'))
    log.append('one\n')
    log.appendLine('[agent a pid=1] two')
    log.append('three\n')
    await log.flush()
    const text = await readFile(join(dir, 'nested', 'agent.log'), 'utf8')
    expect(text).toMatch(/^one\n\S+ \[agent a pid=1\] two\nthree\n$/)
  })

  it('redacts what it is given before it reaches the disk', async () => {
    const log = new AgentLogFile(join(dir, 'agent.log'), { redact: (text) => text.split('sk-canary-123').join('«redacted»') })
    log.append('auth failed for key sk-canary-123\n')
    await log.flush()
    const text = await readFile(join(dir, 'agent.log'), 'utf8')
    expect(text).toBe('auth failed for key «redacted»\n')
  })

  it('writes a note of its own ahead of an unfinished line, so a secret in two pieces around it is still redacted', async () => {
    const log = new AgentLogFile(join(dir, 'agent.log'), { redact: (text) => text.split('sk-canary-123').join('«redacted»') })
    // The agent's stderr in two chunks; between them, Bosun notes a line the agent wrote on stdout (another pipe).
    log.append('stderr says sk-can')
    log.appendNote('[Bosun: on stdout, not JSON] not json')
    log.append('ary-123 done\n')
    await log.flush()
    expect(await readFile(join(dir, 'agent.log'), 'utf8')).toBe('[Bosun: on stdout, not JSON] not json\nstderr says «redacted» done\n')
  })

  it('rotates to <path>.1 at the size cap, so the pair stays bounded', async () => {
    const path = join(dir, 'agent.log')
    const log = new AgentLogFile(path, { maxBytes: 1_000 })
    for (let i = 0; i < 30; i++) {
      log.append(`${String(i).padStart(3, '0')} ${'x'.repeat(95)}\n`)
      await log.flush()
    }
    expect((await stat(path)).size).toBeLessThanOrEqual(1_000)
    expect((await stat(`${path}.1`)).size).toBeLessThanOrEqual(1_000)
    const current = await readFile(path, 'utf8')
    expect(current.trimEnd().split('\n').at(-1)).toMatch(/^029 /)
    const previous = await readFile(`${path}.1`, 'utf8')
    expect(previous).not.toContain('000 ')
  })

  it('where <path>.1 is a folder, rotation keeps the newest half in place and says why: every line is still logged, the folder is left as it is', async () => {
    const path = join(dir, 'agent.log')
    await mkdir(`${path}.1`)
    await writeFile(join(`${path}.1`, 'mine'), 'a person’s file\n')
    const logger = createMemoryLogger()
    const log = new AgentLogFile(path, { maxBytes: 1_000, logger })
    for (let i = 0; i < 30; i++) {
      log.append(`${String(i).padStart(3, '0')} ${'x'.repeat(95)}\n`)
      await log.flush()
    }
    expect(log.stopped).toBe(false)
    const current = await readFile(path, 'utf8')
    expect(current.trimEnd().split('\n').at(-1)).toMatch(/^029 /)
    expect(current).not.toContain('000 ')
    expect(current).toContain(`[bosun] ${path}.1 is a folder, so the older part of ${path} cannot be moved there; only its newest part is kept. Move or remove that folder to keep more.`)
    // Bounded as the pair would be (the kept half and the note, then lines up to the cap).
    expect((await stat(path)).size).toBeLessThanOrEqual(1_000)
    expect(await readdir(`${path}.1`)).toEqual(['mine'])
    expect(await readFile(join(`${path}.1`, 'mine'), 'utf8')).toBe('a person’s file\n')
    expect(logger.lines.filter((l) => l.includes('is a folder'))).toHaveLength(1)
    expect(logger.lines.filter((l) => l.includes('cannot write agent log'))).toEqual([])
  })

  it('drops what exceeds the queue instead of buffering without bound, and says so', async () => {
    const path = join(dir, 'agent.log')
    const log = new AgentLogFile(path, { maxQueuedBytes: 100 })
    // All synchronous: nothing reached the disk yet, so the queue fills.
    for (let i = 0; i < 10; i++) log.append(`${'y'.repeat(40)}\n`)
    log.append('tail\n')
    await log.flush()
    const text = await readFile(path, 'utf8')
    expect(text.length).toBeLessThan(300)
    expect(text).toMatch(/characters of agent output were not logged/)
  })

  it('reports a write failure once and never throws', async () => {
    const logger = createMemoryLogger()
    // A directory where the file should be: every write fails.
    const log = new AgentLogFile(dir, { logger })
    log.append('a\n')
    await log.flush()
    log.append('b\n')
    await log.flush()
    expect(logger.lines.filter((l) => l.includes('cannot write agent log'))).toHaveLength(1)
  })
})

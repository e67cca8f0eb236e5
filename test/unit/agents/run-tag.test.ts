/** The run tag finds an agent's processes by their environment, as a whole entry, and nothing else (run-tag.ts). */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { MAX_ENVIRON_BYTES, newRunTag, processesTagged, RUN_TAG_NAME } from '../../../main/agents/run-tag'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function fakeProc(environs: Record<string, string | null>): string {
  const root = mkdtempSync(join(tmpdir(), 'proc-'))
  dirs.push(root)
  for (const [pid, environ] of Object.entries(environs)) {
    mkdirSync(join(root, pid))
    // null: a process of another user (its environ cannot be read): a folder in its place fails the read too.
    if (environ === null) mkdirSync(join(root, pid, 'environ'))
    else writeFileSync(join(root, pid, 'environ'), environ)
  }
  writeFileSync(join(root, 'uptime'), '1 1')
  return root
}

it('finds the processes whose environment holds the tag as a whole entry, and only those', async () => {
  const tag = 'abc123'
  const root = fakeProc({
    '10': `PATH=/bin\0${RUN_TAG_NAME}=${tag}\0HOME=/h\0`,
    '11': `${RUN_TAG_NAME}=${tag}\0`,
    // Another run, a longer value, a name that only ends like the tag's, the tag as a value of another name.
    '12': `${RUN_TAG_NAME}=${tag}9\0`,
    '13': `X${RUN_TAG_NAME}=${tag}\0`,
    '14': `OTHER=${RUN_TAG_NAME}=${tag}\0`,
    '15': `${RUN_TAG_NAME}=other\0`,
    '16': null,
  })
  expect((processesTagged(tag, root, 'linux')).sort()).toEqual([10, 11])
  expect(processesTagged(tag, root, 'darwin')).toEqual([])
  expect(processesTagged(tag, join(root, 'missing'), 'linux')).toEqual([])
})

it('reads at most the first 64 KiB of each environment: a tag pushed past them is not found', () => {
  const tag = 'def456'
  const filler = `FILL=${'x'.repeat(MAX_ENVIRON_BYTES)}\0`
  const root = fakeProc({ '20': `${RUN_TAG_NAME}=${tag}\0${filler}`, '21': `${filler}${RUN_TAG_NAME}=${tag}\0` })
  expect(processesTagged(tag, root, 'linux')).toEqual([20])
})

it.runIf(process.platform === 'linux')('finds a real process that left its group with setsid, by the tag it inherited', async () => {
  const tag = newRunTag()
  const child = spawn('setsid', ['sleep', '30'], { env: { PATH: process.env.PATH, [RUN_TAG_NAME]: tag }, stdio: 'ignore' })
  try {
    await new Promise((resolve) => child.once('spawn', resolve))
    // setsid may fork: the sleep is whichever process holds the tag.
    await expect.poll(async () => (processesTagged(tag)).length).toBe(1)
    expect(processesTagged(newRunTag())).toEqual([])
  } finally {
    for (const pid of processesTagged(tag)) process.kill(pid, 'SIGKILL')
    child.kill('SIGKILL')
  }
})

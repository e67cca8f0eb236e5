import { describe, expect, it } from 'vitest'
import { PtyProcess } from '../../../main/terminals/pty-process'

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

describe('PtyProcess.stop', () => {
  it('a stop sent right after spawn ends the command with SIGTERM, before the child has its own process group', async () => {
    // The child calls setsid only once it runs; until then `kill(-pid)` finds no group. Twenty tries make the
    // window show up on any machine (before the fix, more than half of them needed the SIGKILL deadline).
    const signals: Array<string | null> = []
    for (let i = 0; i < 20; i++) {
      const p = PtyProcess.spawn({ file: 'sleep', args: ['300'], cwd: '/tmp', env })
      try {
        signals.push((await p.stop(10_000)).signal)
      } finally {
        p.dispose()
      }
    }
    expect(signals).toEqual(Array(20).fill('SIGTERM'))
  }, 60_000)

  it('a command that ignores SIGTERM is killed at the deadline', async () => {
    const p = PtyProcess.spawn({ file: 'sh', args: ['-c', "trap '' TERM; echo ready; sleep 300"], cwd: '/tmp', env })
    await new Promise<void>((resolve) => {
      const sub = p.onDidWrite((data) => data.includes('ready') && (sub.dispose(), resolve()))
    })
    expect(await p.stop(200)).toEqual({ exitCode: null, signal: 'SIGKILL' })
    p.dispose()
  })
})

describe('PtyProcess output', () => {
  it('a command that prints a lot and exits at once is read to its last byte before the exit is reported', async () => {
    // On Linux the master side answers EIO as soon as the last slave descriptor closes, and what the kernel
    // still held was lost (the tail of a test run, 4 KiB or more, in about a third of runs).
    const tails: string[] = []
    for (let i = 0; i < 10; i++) {
      const p = PtyProcess.spawn({ file: 'sh', args: ['-c', 'seq 1 20000; echo END'], cwd: '/tmp', env })
      let output = ''
      const sub = p.onDidWrite((data) => (output += data))
      await p.exited
      sub.dispose()
      p.dispose()
      tails.push(output.slice(-12))
    }
    expect(tails).toEqual(Array(10).fill('20000\r\nEND\r\n'))
  }, 30_000)
})

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

/**
 * BENCH_PROFILE=<file>: a CPU profile of this worker's main thread over the measured window (read it with
 * any `.cpuprofile` viewer). Through the inspector, not `--cpu-prof`, so the flags the worker threads
 * inherit stay the app's.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

export async function startProfile(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.BENCH_PROFILE
  if (!file) return undefined
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 200 })
  await session.post('Profiler.start')
  return async () => {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(file, JSON.stringify(profile))
    session.disconnect()
  }
}

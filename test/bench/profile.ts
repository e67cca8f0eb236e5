/**
 * BENCH_PROFILE=<file>: a CPU profile of this worker's main thread over the measured window (read it with
 * any `.cpuprofile` viewer). Through the inspector, not `--cpu-prof`, so the flags the worker threads
 * inherit stay the app's.
 *
 * BENCH_HEAP_PROFILE=<file>: a sampling heap profile of the main thread over the same window (`.heapprofile`: what
 * allocated, by stack, whether or not it was kept), the allocation that drives the GC and the RSS.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

export async function startProfile(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.BENCH_PROFILE
  const heapFile = process.env.BENCH_HEAP_PROFILE
  if (!file && !heapFile) return undefined
  const session = new Session()
  session.connect()
  if (file) {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 200 })
    await session.post('Profiler.start')
  }
  if (heapFile) {
    await session.post('HeapProfiler.enable')
    // Every allocation whatever its lifetime (what the young generation's GC pays for), about one sample per 8 KiB.
    await session.post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  }
  return async () => {
    if (file) writeFileSync(file, JSON.stringify((await session.post('Profiler.stop')).profile))
    if (heapFile) writeFileSync(heapFile, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile))
    session.disconnect()
  }
}

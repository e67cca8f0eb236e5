/**
 * CPU time this process (every thread of it: libuv's pool does the file system calls) used since `start`, in ms.
 * A bound on it says "this is cheap" without depending on the machine's load, which stretches the wall clock
 * (a 2-core CI machine running two test workers and Chromium) but not the work done.
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

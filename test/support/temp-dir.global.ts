/**
 * Global setup of every project: a temporary folder of this run's own, in which each test file gets one (see
 * temp-dir.setup.ts). After the run, it is removed, and any process still running with its TMPDIR in it fails
 * the run (and is ended). Other runs' files and processes are never looked at.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { describeLeftovers, endProcesses, processesLeftIn } from './leftovers'

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's temporary folder (one per project). */
    runTmpDir: string
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const runTmpDir = mkdtempSync(join(tmpdir(), `vitest-${project.name}-`))
  project.provide('runTmpDir', runTmpDir)
  return async () => {
    const left = await processesLeftIn(runTmpDir)
    endProcesses(left)
    rmSync(runTmpDir, { recursive: true, force: true })
    if (left.length > 0) throw new Error(`Processes the ${project.name} tests started are still running after them:\n${describeLeftovers([], left)}`)
  }
}

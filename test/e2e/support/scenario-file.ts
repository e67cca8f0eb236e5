/** Scenarios written for one test: each in a temporary folder of its own, removed after the test. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { Scenario } from '../../agents/scenario'

/** Call at the top of a file: the function it returns writes `scenario` as `<name>.json` and returns its path. */
export function scenarioFiles(): (name: string, scenario: Scenario) => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return (name, scenario) => {
    const dir = mkdtempSync(join(tmpdir(), `bosun-e2e-${name}-`))
    dirs.push(dir)
    const file = join(dir, `${name}.json`)
    writeFileSync(file, JSON.stringify(scenario))
    return file
  }
}

/** The fixture scenario `name` (test/fixtures/scenarios) as an agent that lists its sessions (`sessionCapabilities.list`). */
export function listingScenario(name: string): Scenario {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'scenarios', `${name}.json`), 'utf8')) as Scenario
  const capabilities = scenario.initialize?.capabilities ?? {}
  const session = (capabilities.sessionCapabilities ?? {}) as Record<string, unknown>
  return { ...scenario, initialize: { ...scenario.initialize, capabilities: { ...capabilities, sessionCapabilities: { ...session, list: {} } } } }
}

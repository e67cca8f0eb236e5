/** How tests and e2e launch the scripted agent (see scripted-agent.ts and scenario.ts). */
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = resolve(here, '..', '..')

/** Absolute path of a scenario in test/fixtures/scenarios/ (a bare name gets `.json`). */
export function scenarioPath(name: string): string {
  if (isAbsolute(name)) return name
  return join(repoRoot, 'test', 'fixtures', 'scenarios', name.endsWith('.json') ? name : `${name}.json`)
}

/** `{ command, args }` to spawn the scripted agent on a scenario (absolute paths; command = this node). */
export function scriptedAgentCommand(scenario: string, options: { v2?: boolean; extraArgs?: string[] } = {}): { command: string; args: string[] } {
  const tsxLoader = join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')
  const args = ['--import', pathToFileURL(tsxLoader).href, join(here, 'scripted-agent.ts'), '--scenario', scenarioPath(scenario)]
  if (options.v2) args.push('--v2')
  args.push(...(options.extraArgs ?? []))
  return { command: process.execPath, args }
}

/** `{ command, args }` to spawn the hostile agent (test/agents/hostile-agent.ts) in one attack mode. */
export function hostileAgentCommand(mode: string, options: { count?: number; v2?: boolean; extraArgs?: string[] } = {}): { command: string; args: string[] } {
  const tsxLoader = join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')
  const args = ['--import', pathToFileURL(tsxLoader).href, join(here, 'hostile-agent.ts'), '--mode', mode, '--count', String(options.count ?? 100)]
  if (options.v2) args.push('--v2')
  args.push(...(options.extraArgs ?? []))
  return { command: process.execPath, args }
}

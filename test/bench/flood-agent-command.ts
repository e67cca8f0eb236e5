/** How the benchmark launches the flood agent (test/agents/flood-agent.ts) with this Node and tsx. */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

export function floodAgentCommand(count: number): { command: string; args: string[] } {
  const tsxLoader = join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')
  return { command: process.execPath, args: ['--import', pathToFileURL(tsxLoader).href, join(repoRoot, 'test', 'agents', 'flood-agent.ts'), '--count', String(count)] }
}

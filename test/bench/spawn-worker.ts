/** Runs a bench worker in a Node process of its own (tsx; GC through ./gc.ts) and returns the JSON line it prints last. */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const tsxLoader = join(resolve(here, '..', '..'), 'node_modules', 'tsx', 'dist', 'loader.mjs')

/** Where `vite.bench.config.ts` puts the bundled flood worker (`npm run bench` builds it). */
export const BUNDLED_FLOOD_WORKER = join(resolve(here, '..', '..'), 'out', 'bench', 'flood-worker.mjs')

/**
 * `script` (a file here) under tsx, or with `bundle`, that built JavaScript file with plain Node: the app's code as
 * it ships, without TypeScript compiled at start or tsx's source maps in memory. `nodeFlags` go before it (V8's).
 */
export function runWorker<T>(script: string, args: string[], options: { bundle?: string; nodeFlags?: string[] } = {}): Promise<T> {
  return new Promise((done, fail) => {
    const entry = [...(options.nodeFlags ?? []), ...(options.bundle !== undefined ? [options.bundle] : ['--import', pathToFileURL(tsxLoader).href, join(here, script)])]
    if (options.bundle !== undefined && !existsSync(options.bundle)) return fail(new Error(`${options.bundle} is not built: run \`npx vite build -c vite.bench.config.ts\` (npm run bench does)`))
    const child = spawn(process.execPath, [...entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err = (err + text).slice(-4000)))
    child.on('error', fail)
    child.on('close', (code) => {
      const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'))
      if (code !== 0 || !line) return fail(new Error(`${script} ${args.join(' ')} exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`))
      done(JSON.parse(line) as T)
    })
  })
}

/** The worker's side of {@link runWorker}: prints the result as one JSON line and exits 0, or the error and exits 1. */
export function reportToParent(result: Promise<unknown>): void {
  result.then(
    (value) => {
      process.stdout.write(JSON.stringify(value) + '\n')
      process.exit(0)
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exit(1)
    },
  )
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export const fixed = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : '—')

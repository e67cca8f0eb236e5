/** Reading a child process's output in tests (the browser host's CLI prints its URL on a line of its own). */
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

/** Resolves with the first stdout line starting with `prefix`; rejects (with stderr) if the process exits first. */
export function lineStartingWith(process: ChildProcess, prefix: string): Promise<string> {
  let stderr = ''
  process.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: process.stdout! })
    lines.on('line', (line) => {
      if (!line.startsWith(prefix)) return
      lines.close()
      resolvePromise(line.slice(prefix.length))
    })
    process.once('exit', (code, signal) => reject(new Error(`the CLI exited (code ${code}, signal ${signal}) before printing "${prefix}":\n${stderr}`)))
  })
}

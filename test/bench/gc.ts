/**
 * A full GC for the bench workers without `--expose-gc` on the command line: Node refuses to start a
 * worker thread whose inherited `execArgv` holds that flag, so the history thread would fall back to
 * main's thread and the bench would measure a path the app never takes.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

export function gc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
}

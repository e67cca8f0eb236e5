/**
 * A Node bundle of main-process code for plain Node (ES modules, `.mjs`, packages left in node_modules as in
 * electron-vite's main build): the browser host's (`vite.web.config.ts`) and the bench's (`vite.bench.config.ts`).
 * The history thread's bundle goes in with every such build, beside the chunks that load it (`WORKER_BUNDLE` in
 * main/history/worker-history-store.ts).
 */
import { resolve } from 'node:path'
import { externalizeDepsPlugin } from 'electron-vite'
import type { UserConfig } from 'vite'

export function nodeBundleConfig(outDir: string, entries: Record<string, string>): UserConfig {
  return {
    // Node's own modules are external in an SSR build anyway. Nothing of the renderer's: no public folder, no index.html.
    plugins: [externalizeDepsPlugin()],
    publicDir: false,
    logLevel: 'warn',
    build: {
      ssr: true,
      target: 'node22',
      outDir: resolve(__dirname, outDir),
      emptyOutDir: true,
      minify: false,
      sourcemap: false,
      rollupOptions: {
        input: { ...Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, resolve(__dirname, file)])), 'history-worker': resolve(__dirname, 'main/history/history-worker.ts') },
        // `.mjs`: the output folder has no package.json to say these are ES modules.
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      },
    },
  }
}

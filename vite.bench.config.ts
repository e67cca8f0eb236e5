/**
 * The flood bench's worker as plain JavaScript (`out/bench/flood-worker.mjs`, its history thread beside it), so the
 * bare loop, the transport and the services run as the app ships (bundled, no TypeScript compiled at start and no
 * tsx source maps held), and their RSS compares what a person's Bosun holds. Built by `npm run bench`.
 */
import { resolve } from 'node:path'
import { externalizeDepsPlugin } from 'electron-vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [externalizeDepsPlugin()],
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node22',
    outDir: resolve(__dirname, 'out/bench'),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: {
        'flood-worker': resolve(__dirname, 'test/bench/flood-worker.ts'),
        // Beside the worker's chunks, where worker-history-store.ts looks for it (WORKER_BUNDLE).
        'history-worker': resolve(__dirname, 'main/history/history-worker.ts'),
      },
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
})

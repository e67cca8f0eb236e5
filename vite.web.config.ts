/**
 * The browser host as a bundle: `out/web/web.mjs` (main/web/cli.ts) and its history thread
 * `out/web/history-worker.mjs` beside it, so `npm run start:web` runs built code as the Electron app does, with no
 * TypeScript compiled at start (it starts in about half the time and holds about 20 MiB less). Built by
 * `npm run build`, after `electron-vite build`.
 */
import { resolve } from 'node:path'
import { externalizeDepsPlugin } from 'electron-vite'
import { defineConfig } from 'vite'

export default defineConfig({
  // Packages stay in node_modules (the same plugin as electron-vite's main build); Node's own modules are external
  // in an SSR build anyway. Nothing of the renderer's: no public folder, no index.html.
  plugins: [externalizeDepsPlugin()],
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node22',
    outDir: resolve(__dirname, 'out/web'),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: {
        web: resolve(__dirname, 'main/web/cli.ts'),
        // Beside web.mjs, where worker-history-store.ts looks for it (WORKER_BUNDLE).
        'history-worker': resolve(__dirname, 'main/history/history-worker.ts'),
      },
      // `.mjs`: out/web has no package.json to say these are ES modules.
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
})

/**
 * The browser host as a bundle: `out/web/web.mjs` (main/web/cli.ts) and its history thread
 * `out/web/history-worker.mjs` beside it, so `npm run start:web` runs built code as the Electron app does, with no
 * TypeScript compiled at start (it starts in about half the time and holds about 20 MiB less). Packages stay in
 * node_modules, as in electron-vite's main build. Built by `npm run build`, after `electron-vite build`.
 */
import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'

const pkg = JSON.parse(readFileSync(resolve(__dirname, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
const packages = [...builtinModules, ...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]
const external = (id: string) => id.startsWith('node:') || packages.some((name) => id === name || id.startsWith(`${name}/`))

export default defineConfig({
  // Nothing of the renderer's: no public folder, no index.html.
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
      external,
      // `.mjs`: out/web has no package.json to say these are ES modules.
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
})

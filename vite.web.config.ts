/**
 * The browser host as a bundle: `out/web/web.mjs` (main/web/cli.ts) and its history thread
 * `out/web/history-worker.mjs` beside it, so `npm run start:web` runs built code as the Electron app does, with no
 * TypeScript compiled at start (it starts in about half the time and holds about 20 MiB less). Built by
 * `npm run build`, after `electron-vite build`.
 */
import { defineConfig } from 'vite'
import { nodeBundleConfig } from './vite.node-bundle'

export default defineConfig(nodeBundleConfig('out/web', { web: 'main/web/cli.ts' }))

import { resolve } from 'node:path'
import { defineConfig } from 'vite'

/**
 * Dev preview of the renderer over a fake BosunApi (no Electron, no backend):
 *   npx vite --config renderer/dev/vite.config.ts        → http://127.0.0.1:5199/
 * No React plugin: its refresh preamble is an inline script, which our CSP forbids.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, '.'),
  esbuild: { jsx: 'automatic' },
  server: { host: '127.0.0.1', port: 5199, strictPort: true, hmr: { host: '127.0.0.1' } },
  logLevel: 'warn',
})

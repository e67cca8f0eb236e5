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
  // Pre-bundle up front: a dependency discovered late makes Vite reload the page mid-session.
  optimizeDeps: {
    include: ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom/client', 'markdown-it', 'highlight.js/lib/common', 'diff', '@tanstack/react-virtual'],
  },
  server: { host: '127.0.0.1', port: 5199, strictPort: true, hmr: { host: '127.0.0.1' } },
  logLevel: 'warn',
})

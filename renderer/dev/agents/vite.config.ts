import { resolve } from 'node:path'
import { defineConfig } from 'vite'

/**
 * Dev preview of the Agents screen over a fake BosunApi:
 *   npx vite --config renderer/dev/agents/vite.config.ts        → http://127.0.0.1:5197/
 * (Its own port, so it runs beside the session preview on 5199.)
 */
export default defineConfig({
  root: resolve(import.meta.dirname, '.'),
  esbuild: { jsx: 'automatic' },
  optimizeDeps: { include: ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom/client'] },
  server: { host: '127.0.0.1', port: 5197, strictPort: true, hmr: { host: '127.0.0.1' } },
  logLevel: 'warn',
})

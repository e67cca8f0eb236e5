import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          // The app itself, which index.js imports once Node's compile cache is on: an entry of its own so that it lies
          // beside index.js (worker-history-store.ts finds the history's thread next to the module it is built into).
          'app-main': resolve(__dirname, 'main/app-main.ts'),
          // The history's writer thread, started from its own file next to index.js (worker-history-store.ts).
          'history-worker': resolve(__dirname, 'main/history/history-worker.ts'),
        },
        // The worker and the chunks it shares with index.js are `.mjs`: packaged, they are started from
        // app.asar.unpacked (electron-builder.yml's asarUnpack), where no package.json says "type": "module".
        output: {
          entryFileNames: (chunk) => (chunk.name === 'history-worker' ? '[name].mjs' : '[name].js'),
          chunkFileNames: 'chunks/[name]-[hash].mjs',
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin({ exclude: ['zod'] })],
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'preload/index.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // The page parses and keeps its script: minified, it is about a third of the size (startup, heap).
      minify: process.env.BOSUN_NO_MINIFY ? false : 'esbuild',
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
})

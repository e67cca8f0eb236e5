/**
 * The flood bench's worker as plain JavaScript (`out/bench/flood-worker.mjs`, its history thread beside it), so the
 * bare loop, the transport and the services run as the app ships (bundled, no TypeScript compiled at start and no
 * tsx source maps held), and their RSS compares what a person's Bosun holds. Built by `npm run bench`, after
 * `npm run build`.
 */
import { defineConfig } from 'vite'
import { nodeBundleConfig } from './vite.node-bundle'

export default defineConfig(nodeBundleConfig('out/bench', { 'flood-worker': 'test/bench/flood-worker.ts' }))

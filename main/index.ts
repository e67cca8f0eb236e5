// The app's entry. Before the rest of Bosun loads, Node's compile cache is turned on in the app's home, so a later start
// compiles little of it again; then the app itself (`app-main.ts`). Awaited: Electron is ready only once the entry has
// run, and the app registers its scheme before that.
import { cacheCompiledCodeForApp } from './shell/compile-cache'

cacheCompiledCodeForApp()
await import('./app-main')

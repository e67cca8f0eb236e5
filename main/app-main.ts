// The desktop app, started by `index.ts`: everything Electron-specific lives in main/shell/, every service in main/app/.
import { createBosunServices } from './app/create-services'
import { adoptSystemCertificatesBeforeFirstRequest } from './base/system-certificates'
import { logUnhandledRejections } from './base/unhandled'
import { startHistoryThread } from './history/worker-history-store'
import { registerAppScheme, runElectronApp } from './shell/app'

// Main's own downloads trust the OS's certificate store too (a company proxy's CA), from the first request on.
adoptSystemCertificatesBeforeFirstRequest((message) => console.warn(`Bosun: ${message}`))

// A stray rejection is logged; the app and every agent's session keep running.
logUnhandledRejections((message, reason) => console.error(`Bosun: ${message}`, reason))

// Scheme privileges must be granted before the app is ready.
registerAppScheme()

// The history's thread loads while Electron gets ready; it opens nothing before the services hold the home's lock.
runElectronApp({ createServices: createBosunServices, startHistoryThread }).catch((error: unknown) => {
  console.error('Bosun failed to start:', error)
  process.exit(1)
})

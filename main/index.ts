// App lifecycle only: everything Electron-specific lives in main/shell/, every service in main/app/.
import { createBosunServices } from './app/create-services'
import { registerAppScheme, runElectronApp } from './shell/app'

// Scheme privileges must be granted before the app is ready.
registerAppScheme()

runElectronApp({ createServices: createBosunServices }).catch((error: unknown) => {
  console.error('Bosun failed to start:', error)
  process.exit(1)
})

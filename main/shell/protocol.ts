/**
 * The app is served from `bosun://app/…`, never from a remote URL or `file://`: a standard, secure scheme
 * gives the renderer a real origin (so `'self'` in the CSP means just us, and IPC can check it) and the
 * handler decides exactly which files exist.
 */
import { protocol } from 'electron'
import { contentSecurityPolicy, readStaticFile } from '../web/static-files'

export const APP_SCHEME = 'bosun'
export const APP_HOST = 'app'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`

/** The CSP sent with every file of the Electron renderer (the page's meta CSP applies too; both must pass). */
export const SHELL_CSP = contentSecurityPolicy()

/** Must run before `app.whenReady()`: privileges can only be granted then. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
}

/** Whether a URL is one of ours (`bosun://app/…`). Node gives non-special schemes an opaque origin, so compare parts. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST
  } catch {
    return false
  }
}

/** The `protocol.handle` handler: files under `rendererDir` with the CSP header; traversal, other hosts and methods refused. */
export function createAppProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 })
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      return new Response('Bad request', { status: 400 })
    }
    if (!isAppUrl(request.url)) return new Response('Not found', { status: 404 })
    const file = await readStaticFile(rendererDir, url.pathname)
    if (!file.ok) return new Response(file.status === 404 ? 'Not found' : 'Forbidden', { status: file.status })
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
      status: 200,
      headers: {
        'Content-Type': file.contentType,
        'Content-Security-Policy': SHELL_CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    })
  }
}

/** Serves the renderer on `bosun://app`; call once after ready. */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir))
}

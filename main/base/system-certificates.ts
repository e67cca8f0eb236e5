/**
 * Main's own https (the agent registry, icons, agent downloads) trusts the operating system's certificate store
 * as well as the roots bundled with Node, as a browser does. A company's TLS-inspecting proxy installs its CA
 * there; without this every download fails with "unable to get local issuer certificate". (NODE_EXTRA_CA_CERTS
 * is no way out in the packaged app: the fuse that turns off NODE_OPTIONS ignores it too.)
 */
import type tls from 'node:tls'
import { lazyRequire } from './lazy-require'

/** Node's tls, loaded when the roots are adopted (before main's first request), not at start: about 6 MiB of RSS. */
const loadTls = lazyRequire<typeof tls>('node:tls')

/** What of `node:tls` this needs (tests pass their own). */
export interface CertificateApi {
  getCACertificates?(type?: 'default' | 'system' | 'bundled' | 'extra'): string[]
  setDefaultCACertificates?(certificates: string[]): void
}

/**
 * Adds the system's roots to the default list of this thread's TLS clients (those that name no `ca` of their
 * own), before main's first request. Never throws: on failure the bundled roots stay.
 */
export function trustSystemCertificates(api: CertificateApi = loadTls()): { added: number } | { problem: string } {
  if (typeof api.getCACertificates !== 'function' || typeof api.setDefaultCACertificates !== 'function') {
    return { problem: 'this runtime cannot read the system certificate store' }
  }
  try {
    const system = api.getCACertificates('system')
    if (system.length === 0) return { added: 0 }
    // The current defaults (bundled, plus NODE_EXTRA_CA_CERTS where it applies) stay; duplicates are dropped.
    api.setDefaultCACertificates([...api.getCACertificates('default'), ...system])
    return { added: system.length }
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) }
  }
}

/** The system's roots, or one warning saying why not. */
export function adoptSystemCertificates(warn: (message: string) => void, api: CertificateApi = loadTls()): void {
  const result = trustSystemCertificates(api)
  if ('problem' in result) warn(`system certificates not used (${result.problem})`)
}

/** Set by an entry point: the roots still to adopt, and where to warn. */
let deferred: { warn: (message: string) => void; api: CertificateApi | undefined } | undefined

/**
 * What each entry point (Electron, the browser host) runs first: the system's roots are adopted right before
 * main's first TLS request ({@link beforeTlsRequest}), not now. Reading the store takes tens of milliseconds that
 * would otherwise come before the first window, and most starts make no request at all.
 */
export function adoptSystemCertificatesBeforeFirstRequest(warn: (message: string) => void, api?: CertificateApi): void {
  deferred = { warn, api }
}

/** Called before each of main's own TLS connections (downloads, proxy tunnels): adopts the system's roots the first time, if an entry point asked. */
export function beforeTlsRequest(): void {
  if (!deferred) return
  const { warn, api } = deferred
  deferred = undefined
  adoptSystemCertificates(warn, api)
}

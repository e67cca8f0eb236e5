/**
 * Main's own downloads trust the OS's certificate store (a company proxy's CA lives there). A child process
 * whose "system" store is the test CA (SSL_CERT_FILE; NODE_EXTRA_CA_CERTS unset) downloads from an https server
 * with a certificate of that CA: refused with Node's bundled roots alone, fetched once the system roots are added.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { adoptSystemCertificates, trustSystemCertificates } from '../../../main/base/system-certificates'

const run = promisify(execFile)

it('a download from a server whose CA is only in the system store fails, then works once the entry point asked for the system roots, which are read at the first request, not at start', async () => {
  const tls = resolve('test/fixtures/tls')
  const emptyDir = mkdtempSync(join(tmpdir(), 'bosun-no-certs-'))
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, SSL_CERT_FILE: join(tls, 'ca.pem'), SSL_CERT_DIR: emptyDir }
    delete env.NODE_EXTRA_CA_CERTS
    const { stdout } = await run(process.execPath, ['--import', 'tsx', resolve('test/integration/registry/system-certificates-child.ts'), tls], { env, timeout: 20_000 })
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { before: { error?: string }; after: { body?: string; error?: string }; added: { atAdopt: number; atRequest: number }; warnings: string[] }
    expect(result.before.error).toMatch(/issuer certificate|self[- ]signed|certificate/i)
    expect(result.after).toEqual({ body: '{"agents":[]}' })
    expect(result.added).toEqual({ atAdopt: 0, atRequest: 1 })
    expect(result.warnings).toEqual([])
  } finally {
    rmSync(emptyDir, { recursive: true, force: true })
  }
})

it('says why when the runtime cannot read the system store, and keeps the roots it has', () => {
  expect(trustSystemCertificates({})).toEqual({ problem: 'this runtime cannot read the system certificate store' })
  let set: string[] | undefined
  const api = {
    getCACertificates: (type?: string) => (type === 'system' ? [] : ['bundled']),
    setDefaultCACertificates: (certificates: string[]) => void (set = certificates),
  }
  expect(trustSystemCertificates(api)).toEqual({ added: 0 })
  expect(set).toBeUndefined()
  const failing = { ...api, getCACertificates: () => { throw new Error('store locked') } }
  expect(trustSystemCertificates(failing)).toEqual({ problem: 'store locked' })
})

it('at start, warns once with the reason when the system store is not used, and not when it is', () => {
  const warnings: string[] = []
  adoptSystemCertificates((message) => warnings.push(message), {})
  expect(warnings).toEqual(['system certificates not used (this runtime cannot read the system certificate store)'])
  adoptSystemCertificates((message) => warnings.push(message), { getCACertificates: () => [], setDefaultCACertificates: () => undefined })
  expect(warnings).toHaveLength(1)
})

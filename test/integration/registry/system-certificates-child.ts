/**
 * Child of system-certificates.test.ts: serves https with a certificate from the test CA (which this process's
 * environment puts in the "system" store through SSL_CERT_FILE), downloads from it before and after the entry
 * points' `adoptSystemCertificatesBeforeFirstRequest`, and prints what happened as one JSON line, with the number
 * of default roots before that call, after it, and after the download.
 */
import { readFileSync } from 'node:fs'
import https from 'node:https'
import tls from 'node:tls'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { adoptSystemCertificatesBeforeFirstRequest } from '../../../main/base/system-certificates'
import { downloadToBuffer } from '../../../main/registry/download'

const dir = process.argv[2]!
const server = https.createServer({ key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) }, (_req, res) => {
  res.setHeader('content-type', 'application/json')
  res.end('{"agents":[]}')
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/registry.json`
const get = () => downloadToBuffer(url, { maxBytes: 1024, idleTimeoutMs: 5_000 }).then((r) => ({ body: r.body.toString() }), (e: Error) => ({ error: e.message }))
const before = await get()
const roots = () => tls.getCACertificates('default').length
const rootsAtStart = roots()
const warnings: string[] = []
adoptSystemCertificatesBeforeFirstRequest((message) => warnings.push(message))
const rootsAfterAdopt = roots()
const after = await get()
const rootsAfterRequest = roots()
server.close()
console.log(JSON.stringify({ before, after, added: { atAdopt: rootsAfterAdopt - rootsAtStart, atRequest: rootsAfterRequest - rootsAtStart }, warnings }))

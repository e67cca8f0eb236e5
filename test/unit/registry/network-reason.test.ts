/**
 * A registry fetch or download that cannot reach its host says why in words before the system's message: the Agents
 * page showed "Could not reach 127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9" alone.
 */
import { createServer } from 'node:net'
import { expect, it } from 'vitest'
import { downloadToBuffer, networkReason } from '../../../main/registry/download'

const errno = (code: string, message: string) => Object.assign(new Error(message), { code })

it('names what a connection refused, an unknown host, a timeout and a cut connection mean, keeping the system message', () => {
  expect(networkReason(errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'))).toBe('nothing answers there (connection refused); connect ECONNREFUSED 127.0.0.1:9')
  expect(networkReason(errno('ENOTFOUND', 'getaddrinfo ENOTFOUND cdn.example'))).toBe('the name could not be looked up (is this computer offline?); getaddrinfo ENOTFOUND cdn.example')
  expect(networkReason(errno('ETIMEDOUT', 'connect ETIMEDOUT'))).toBe('it did not answer in time; connect ETIMEDOUT')
  expect(networkReason(errno('ECONNRESET', 'socket hang up'))).toBe('the connection was cut; socket hang up')
  // Anything else as the system said it.
  expect(networkReason(errno('EPROTO', 'write EPROTO'))).toBe('write EPROTO')
  expect(networkReason(new Error('odd'))).toBe('odd')
})

it('a download from a port where nothing listens says so', async () => {
  // A port that was free a moment ago: bound, then closed.
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await expect(downloadToBuffer(`http://127.0.0.1:${port}/registry.json`, { maxBytes: 1024, env: {} })).rejects.toThrow(
    `Could not reach 127.0.0.1:${port}: nothing answers there (connection refused); connect ECONNREFUSED 127.0.0.1:${port}`,
  )
})

/**
 * The small map files in Bosun's home (login-keys.json, protocol-versions.json) keep what they could not use: a file
 * not of their shape (a newer Bosun's, a hand edit gone wrong) is copied aside before the first write replaces it, and
 * one that cannot be read (a FIFO, a folder) is never replaced.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { MapFile } from '../../../main/base/map-file'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bosun-map-file-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

const entries = new Map([['codex', { methodId: 'api-key', names: ['OPENAI_API_KEY'] }]])

it.each([
  ['a newer Bosun’s file', JSON.stringify({ version: 2, agents: { codex: { how: 'newer' } } })],
  ['a hand edit that is not JSON', '{ "version": 1, "agents": { "codex": '],
  ['a map of another shape', JSON.stringify({ version: 1, agents: ['not', 'a', 'map'] })],
])('%s is copied aside, whole, before the first write replaces it', async (_what, text) => {
  const path = join(home, 'login-keys.json')
  writeFileSync(path, text)
  const file = new MapFile(path, 'agents')
  expect(await file.read()).toBeUndefined()
  await file.write(entries)
  await file.write(entries)
  const copies = readdirSync(home).filter((name) => name.startsWith('login-keys.json.corrupt-'))
  expect(copies).toHaveLength(1)
  expect(readFileSync(join(home, copies[0]!), 'utf8')).toBe(text)
  expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, agents: Object.fromEntries(entries) })
})

it('a file it cannot read (a folder, a FIFO) is never replaced: each write fails and says why', async () => {
  const folder = join(home, 'login-keys.json')
  mkdirSync(folder)
  const file = new MapFile(folder, 'agents')
  expect(await file.read()).toBeUndefined()
  await expect(file.write(entries)).rejects.toThrow(`${folder} is not a regular file. Fix or remove the file, then restart Bosun.`)
  expect(lstatSync(folder).isDirectory()).toBe(true)
  if (process.platform === 'win32') return
  const fifo = join(home, 'protocol-versions.json')
  execFileSync('mkfifo', [fifo])
  const versions = new MapFile(fifo, 'commands')
  expect(await versions.read()).toBeUndefined()
  await expect(versions.write(new Map([['["codex-acp"]', 1]]))).rejects.toThrow('is not a regular file')
  expect(lstatSync(fifo).isFIFO()).toBe(true)
})

it('a file of its shape is read and replaced as it is, with no copy', async () => {
  const path = join(home, 'login-keys.json')
  writeFileSync(path, JSON.stringify({ version: 1, agents: { old: { methodId: 'm', names: ['K'] } } }))
  const file = new MapFile(path, 'agents')
  expect(await file.read()).toEqual({ old: { methodId: 'm', names: ['K'] } })
  await file.write(entries)
  expect(readdirSync(home)).toEqual(['login-keys.json'])
})

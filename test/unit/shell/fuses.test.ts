/**
 * The packaged app's Electron fuses (issue 10 §3), read from electron-builder.yml as electron-builder reads
 * it: a fuse that is missing keeps Electron's default (most defaults are the unsafe ones), so each is
 * asserted explicitly.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// js-yaml comes with electron-builder (no types of its own here): only this test uses it.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown }
const config = yaml.load(readFileSync(join(__dirname, '../../../electron-builder.yml'), 'utf8')) as Record<string, unknown>

describe('electron-builder.yml', () => {
  it('flips the fuses: no run-as-node, no NODE_OPTIONS, no --inspect, asar only and integrity-checked', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    })
  })

  it('packs the app into an asar archive (what onlyLoadAppFromAsar and the integrity check rely on)', () => {
    expect(config.asar).toBe(true)
    expect(config.files).toContain('out/**')
  })

  it('main never runs its own binary as node (what runAsNode: false would break): no ELECTRON_RUN_AS_NODE, fork or execPath', () => {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name))
        else if (entry.name.endsWith('.ts')) files.push(join(dir, entry.name))
      }
    }
    walk(join(__dirname, '../../../main'))
    expect(files.length).toBeGreaterThan(50)
    const pattern = /ELECTRON_RUN_AS_NODE|\bfork\s*\(|process\.execPath/
    expect(files.filter((f) => pattern.test(readFileSync(f, 'utf8')))).toEqual([])
    expect(pattern.test("childProcess.fork('x')")).toBe(true)
  })
})

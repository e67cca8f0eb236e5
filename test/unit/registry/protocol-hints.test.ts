/** Issue 15, no double start: which version is offered first when a definition does not say. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { knownProtocolVersion, ProtocolVersionMemory } from '../../../main/agents/protocol-hints'

const homes: string[] = []
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

describe('knownProtocolVersion', () => {
  it.each([
    [{ command: 'npx', args: ['-y', '@zed-industries/claude-agent-acp'] }, 1],
    [{ command: 'npx', args: ['-y', '@zed-industries/codex-acp@0.9.2'] }, 1],
    [{ command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'] }, 1],
    [{ command: 'npx', args: ['--yes', '@agentclientprotocol/codex-acp@2.6.0'] }, 1],
    [{ command: '/usr/local/bin/gemini', args: ['--acp'] }, 1],
    [{ command: 'goose', args: ['acp'] }, 1],
    [{ command: 'opencode', args: ['acp'] }, 1],
    [{ command: '/opt/x/codex-acp', args: [] }, 1],
    // Qwen Code, Kilo Code and GitHub Copilot CLI answer 1 to a v2 offer: offered 1, their first start is their only one.
    [{ command: '/usr/local/bin/qwen', args: ['--acp'] }, 1],
    [{ command: 'kilo', args: ['acp'] }, 1],
    [{ command: 'copilot', args: ['--acp'] }, 1],
    [{ command: 'npx', args: ['-y', '@qwen-code/qwen-code@0.24.4', '--acp'] }, 1],
    [{ command: 'npx', args: ['-y', '@kilocode/cli', 'acp'] }, 1],
    [{ command: 'npx', args: ['-y', '@github/copilot', '--acp'] }, 1],
    [{ command: 'anything', args: [], presetId: 'copilot' }, 1],
    [{ command: '/usr/lib/node_modules/.bin/cline', args: ['--acp'] }, 1],
    [{ command: 'auggie', args: ['--acp'] }, 1],
    [{ command: 'npx', args: ['-y', 'cline', '--acp'] }, 1],
    [{ command: 'npx', args: ['-y', '@augmentcode/auggie', '--acp'] }, 1],
    [{ command: '/home/me/.config/Bosun/agents/foo/1.0.0/foo', args: [], presetId: 'registry:foo' }, 1],
    [{ command: 'anything', args: [], presetId: 'gemini' }, 1],
    [{ command: 'my-agent', args: [] }, undefined],
    [{ command: 'npx', args: ['-y', '@acme/unknown'] }, undefined],
    [{ command: 'x', args: [], presetId: 'custom' }, undefined],
  ])('%j → %s', (def, expected) => {
    expect(knownProtocolVersion(def)).toBe(expected)
  })
})

describe('ProtocolVersionMemory', () => {
  it('remembers per command line across instances, and the definition’s own setting wins', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bosun-proto-'))
    homes.push(home)
    const memory = new ProtocolVersionMemory(home)
    await memory.load()
    const def = { command: '/opt/my-agent', args: ['--stdio'] }
    expect(memory.preferred(def)).toBeUndefined()
    await memory.remember(def, 1)

    const again = new ProtocolVersionMemory(home)
    await again.load()
    expect(again.preferred(def)).toBe(1)
    expect(again.preferred({ ...def, args: ['--other'] })).toBeUndefined()
    expect(again.preferred({ ...def, protocolVersion: 2 })).toBe(2)
  })
})

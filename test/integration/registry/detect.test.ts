/**
 * Issue 15, first run: known agents on PATH are found and asked `--version` with a timeout and a scrubbed
 * environment; one that hangs does not hold detection up, and a found agent is one call from a definition.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { detectAgents, VERSION_TIMEOUT_MS } from '../../../main/agents/detect'
import { createAgentConfigService } from '../../../main/config/agent-config-service'
import { RecordingConfirmation } from '../../support/confirmations'
import { createMemoryLogger } from '../../../main/base/log'
import { createRegistryService } from '../../../main/registry/registry-service'
import { must } from '../../support/must'
import { createMemorySecretStore } from '../../unit/secrets/memory-secret-store'

let root: string
let bin: string
/** A detection deadline that only a hanging agent reaches (there is none where it is used), not a slow machine. */
const NO_DEADLINE = 25_000

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bosun-detect-'))
  bin = join(root, 'bin')
  mkdirSync(bin)
  const script = (name: string, body: string) => writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  script('gemini', 'echo "0.27.3"')
  // Prints whether it saw a secret from Bosun's environment (it must not).
  script('codex-acp', 'echo "codex-acp 0.9.2 key=${OPENAI_API_KEY:-none}"')
  script('goose', 'exec sleep 30')
  writeFileSync(join(bin, 'opencode'), 'not executable', { mode: 0o644 })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('detectAgents', () => {
  it('finds the known commands on PATH with their versions, in a scrubbed environment, under a deadline', async () => {
    const env = { PATH: `${bin}:/usr/bin:/bin`, OPENAI_API_KEY: 'sk-canary-123' }
    // The default deadline (VERSION_TIMEOUT_MS, 20 s): the scripts that answer do so long before it on the slowest machine;
    // goose never does, so the test lasts the whole deadline, and its own timeout is that plus the project's 30 s.
    const found = await detectAgents({ env })
    expect(found.map((f) => [f.agent.key, f.path, f.version])).toEqual([
      ['codex', join(bin, 'codex-acp'), 'codex-acp 0.9.2 key=none'],
      ['gemini', join(bin, 'gemini'), '0.27.3'],
      ['goose', join(bin, 'goose'), null],
    ])
  }, VERSION_TIMEOUT_MS + 30_000)

  it('adds a detected agent as a ready definition that offers v1, and marks it added', async () => {
    const home = join(root, 'home')
    const baseEnv = { PATH: `${bin}:/usr/bin:/bin` }
    // No agent that hangs here, and a deadline no answer reaches however slow the machine: gemini's version is read.
    rmSync(join(bin, 'goose'))
    const confirmation = new RecordingConfirmation()
    const config = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv, confirmation })
    const registry = createRegistryService({ home, config, logger: createMemoryLogger(), baseEnv, detectTimeoutMs: NO_DEADLINE })
    try {
      const before = must(await registry.handlers.detectAgents(undefined)).agents
      expect(before.find((a) => a.key === 'gemini')).toMatchObject({ name: 'Gemini CLI', commandLine: 'gemini --acp', version: '0.27.3', added: false, needs: [expect.stringMatching(/Google account to sign in with/)] })
      const { agent } = must(await registry.handlers.addDetectedAgent({ key: 'gemini' }))
      expect(agent).toMatchObject({ name: 'Gemini CLI', command: 'gemini', args: ['--acp'], protocolVersion: 1, presetId: 'gemini', secretEnv: ['GEMINI_API_KEY'] })
      // Main asked the person first, showing the command.
      expect(confirmation.of('agent-definition')[0]?.detail).toContain('Program: "gemini"')
      const after = must(await registry.handlers.detectAgents(undefined)).agents
      expect(after.find((a) => a.key === 'gemini')!.added).toBe(true)
      // A second add gets a free name rather than failing.
      expect(must(await registry.handlers.addDetectedAgent({ key: 'gemini' })).agent.name).toBe('Gemini CLI 2')
    } finally {
      registry.dispose()
      config.dispose()
    }
  })

  it('runs one detection at a time however often the renderer asks: calls at once share it, nothing more is spawned', async () => {
    const home = join(root, 'home')
    const spawns = join(root, 'spawns')
    // Slow enough that every call below arrives while the first detection runs; each run appends a line.
    writeFileSync(join(bin, 'gemini'), `#!/bin/sh\necho x >> '${spawns}'\nsleep 0.3\necho "0.27.3"\n`, { mode: 0o755 })
    rmSync(join(bin, 'goose'))
    const baseEnv = { PATH: `${bin}:/usr/bin:/bin` }
    const config = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv, confirmation: new RecordingConfirmation() })
    const registry = createRegistryService({ home, config, logger: createMemoryLogger(), baseEnv, detectTimeoutMs: NO_DEADLINE })
    try {
      // A renderer may have 256 calls in flight per socket, and 16 sockets: each detection spawns every known agent.
      const answers = await Promise.all(Array.from({ length: 40 }, () => registry.handlers.detectAgents(undefined)))
      for (const answer of answers) expect(must(answer).agents.find((a) => a.key === 'gemini')?.version).toBe('0.27.3')
      expect(readFileSync(spawns, 'utf8').trim().split('\n')).toHaveLength(1)
      // Once it has finished, the next call detects again (something may have been installed meanwhile), and asks
      // only a program that changed for its version.
      must(await registry.handlers.detectAgents(undefined))
      expect(readFileSync(spawns, 'utf8').trim().split('\n')).toHaveLength(1)
      writeFileSync(join(bin, 'gemini'), `#!/bin/sh\necho x >> '${spawns}'\necho "0.28.0"\n`, { mode: 0o755 })
      expect(must(await registry.handlers.detectAgents(undefined)).agents.find((a) => a.key === 'gemini')?.version).toBe('0.28.0')
      expect(readFileSync(spawns, 'utf8').trim().split('\n')).toHaveLength(2)
    } finally {
      registry.dispose()
      config.dispose()
    }
  })

  it('answers with the agents found before a slow --version has answered, and gives the version when asked to wait', async () => {
    // Gemini CLI 0.61 took 13 s to print its version on a busy machine: the list waited for it (up to 5 s, the bound),
    // then showed Gemini without a version.
    const home = join(root, 'home')
    const go = join(root, 'go')
    rmSync(join(bin, 'goose'))
    writeFileSync(join(bin, 'gemini'), `#!/bin/sh\nwhile [ ! -f '${go}' ]; do sleep 0.05; done\necho "0.61.0"\n`, { mode: 0o755 })
    const baseEnv = { PATH: `${bin}:/usr/bin:/bin` }
    const config = await createAgentConfigService({ home, secretStore: createMemorySecretStore(), baseEnv, confirmation: new RecordingConfirmation() })
    const registry = createRegistryService({ home, config, logger: createMemoryLogger(), baseEnv, detectTimeoutMs: 60_000 })
    try {
      const quick = must(await registry.handlers.detectAgents(undefined)).agents
      expect(quick.find((a) => a.key === 'gemini')).toMatchObject({ version: null, versionPending: true, added: false })
      expect(quick.find((a) => a.key === 'codex')).toMatchObject({ version: 'codex-acp 0.9.2 key=none' })
      expect(quick.find((a) => a.key === 'codex')).not.toHaveProperty('versionPending')
      const waiting = registry.handlers.detectAgents({ waitForVersions: true })
      writeFileSync(go, '')
      const full = must(await waiting).agents
      expect(full.find((a) => a.key === 'gemini')).toMatchObject({ version: '0.61.0' })
      expect(full.find((a) => a.key === 'gemini')).not.toHaveProperty('versionPending')
      // The next quick detection has it at once (the program did not change).
      rmSync(go)
      expect(must(await registry.handlers.detectAgents(undefined)).agents.find((a) => a.key === 'gemini')).toMatchObject({ version: '0.61.0' })
    } finally {
      writeFileSync(go, '')
      registry.dispose()
      config.dispose()
    }
  })
})

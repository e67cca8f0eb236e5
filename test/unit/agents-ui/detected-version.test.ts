/** The version a found agent shows beside its name (the Add agent page's "Found on this computer"). */
import { describe, expect, it } from 'vitest'
import { versionShown, withVersions } from '../../../renderer/components/agents/DetectedAgents'
import type { DetectedAgent } from '../../../renderer/screens/agents/registry-api'

describe('versionShown', () => {
  it('takes the version number out of a --version line that also names the program', () => {
    expect(versionShown('GitHub Copilot CLI 1.0.102.')).toBe('1.0.102')
    expect(versionShown('codex-cli 0.46.0')).toBe('0.46.0')
    expect(versionShown('opencode 1.18.2 (abc123)')).toBe('1.18.2')
    expect(versionShown('v22.1.0')).toBe('22.1.0')
    expect(versionShown('goose 1.9.3-beta.1')).toBe('1.9.3-beta.1')
    expect(versionShown('0.24.4')).toBe('0.24.4')
  })

  it('keeps the line when it has no version number of that shape', () => {
    expect(versionShown('Kilo Code CLI')).toBe('Kilo Code CLI')
    expect(versionShown('build 7')).toBe('build 7')
    expect(versionShown('1.0.0+sha.5114f85')).toBe('1.0.0+sha.5114f85')
  })
})

describe('withVersions', () => {
  const agent = (key: string, over: Partial<DetectedAgent> = {}): DetectedAgent => ({ key, name: key, path: `/bin/${key}`, commandLine: key, version: null, added: false, needs: [], ...over })

  it('fills in the versions read later, keeps what the person did meanwhile, and leaves nothing pending', () => {
    const shown = [agent('claude', { version: '0.101.0' }), agent('gemini', { versionPending: true, added: true }), agent('goose', { versionPending: true })]
    const later = [agent('claude', { version: '0.101.0' }), agent('gemini', { version: '0.61.0' }), agent('goose')]
    expect(withVersions(shown, later)).toEqual([agent('claude', { version: '0.101.0' }), agent('gemini', { version: '0.61.0', added: true }), agent('goose')])
    // The later detection failed: the list stays, without the pending marks.
    expect(withVersions(shown, [])).toEqual([agent('claude', { version: '0.101.0' }), agent('gemini', { added: true }), agent('goose')])
  })
})

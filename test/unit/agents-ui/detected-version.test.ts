/** The version a found agent shows beside its name (the Add agent page's "Found on this computer"). */
import { describe, expect, it } from 'vitest'
import { versionShown } from '../../../renderer/components/agents/DetectedAgents'

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

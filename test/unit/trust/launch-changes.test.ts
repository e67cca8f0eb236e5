/**
 * What a running agent's page names of a saved definition it has not taken up yet: it said "your changes apply when
 * Claude restarts" without saying which changes.
 */
import { describe, expect, it } from 'vitest'
import { describeLaunchChanges } from '../../../main/trust/launch-trust'

const started = { command: 'npx', args: ['-y', 'claude-agent-acp'], env: { A: '1', B: '2' }, secretEnv: ['ANTHROPIC_API_KEY'] }

describe('describeLaunchChanges', () => {
  it('names each part that differs, counting the variables and keys', () => {
    expect(describeLaunchChanges(started, { ...started, args: ['-y', 'claude-agent-acp', '--debug'], env: { A: '1', B: '3', C: '4' } })).toEqual([
      'the new arguments',
      '2 changed environment variables',
    ])
    expect(describeLaunchChanges(started, { ...started, command: '/usr/bin/claude-agent-acp', env: { A: '1' } })).toEqual(['the new command', '1 changed environment variable'])
    expect(describeLaunchChanges(started, { ...started, secretEnv: ['OTHER_KEY'] })).toEqual(['2 added or removed keys'])
  })

  it('says a key value changed when only the keychain did, and nothing when nothing that runs differs', () => {
    expect(describeLaunchChanges(started, { ...started }, true)).toEqual(['the key values you changed'])
    expect(describeLaunchChanges(started, { ...started, env: { B: '2', A: '1' }, secretEnv: ['ANTHROPIC_API_KEY'] })).toEqual([])
  })

  it('reads names such as __proto__ and constructor as variables, not as the object’s own properties', () => {
    expect(describeLaunchChanges({ ...started, env: {} }, { ...started, env: JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string> })).toEqual([
      '2 changed environment variables',
    ])
  })
})

import { describe, expect, it } from 'vitest'
import { keyNamesOf, MAX_KEY_NAMES } from '../../../common/agent-keys'

describe('keyNamesOf: the key variables an agent’s error names', () => {
  it('reads codex-acp’s data.envVars in order', () => {
    expect(keyNamesOf({ envVars: ['CODEX_API_KEY', 'OPENAI_API_KEY'] })).toEqual(['CODEX_API_KEY', 'OPENAI_API_KEY'])
    expect(keyNamesOf({ envVar: 'GITHUB_TOKEN' })).toEqual(['GITHUB_TOKEN'])
    expect(keyNamesOf({ varName: 'ACME_KEY', envVars: ['ACME_KEY'] })).toEqual(['ACME_KEY'])
  })

  it('keeps only key names: never a loader, a path or a lowercase or odd name', () => {
    expect(keyNamesOf({ envVars: ['NODE_OPTIONS', 'LD_PRELOAD', 'PATH', 'DYLD_INSERT_LIBRARIES', 'openai_api_key', 'A B_KEY', '_KEY', 'KEY', 42, null] })).toEqual([])
  })

  it('reads nothing from anything but an object, and at most a few names', () => {
    for (const data of [undefined, null, 'OPENAI_API_KEY', ['OPENAI_API_KEY'], { envVars: 'OPENAI_API_KEY' }]) expect(keyNamesOf(data)).toEqual([])
    const many = Array.from({ length: 100 }, (_, i) => `K${i}_KEY`)
    expect(keyNamesOf({ envVars: many })).toEqual(many.slice(0, MAX_KEY_NAMES))
  })
})

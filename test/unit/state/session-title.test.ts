import { describe, expect, it } from 'vitest'
import { createSessionState } from '../../../common/session/reducer'
import { derivedTitle, folderName, untitledName } from '../../../common/session/title'
import { apply, text } from './helpers'

const fresh = () => createSessionState({ sessionId: 's', agentId: 'a', protocolVersion: 1, cwd: '/work' })

describe('the name a session is listed under', () => {
  it('without a title or a prompt, is named after its folder, with either separator and a trailing one', () => {
    expect(untitledName('/home/me/work')).toBe('Session in work')
    expect(untitledName('C:\\src\\app\\')).toBe('Session in app')
    expect(folderName('/')).toBe('/')
  })

  it('is nothing before anything was said, the first prompt on one line after, and the agent’s title when it gives one', () => {
    expect(derivedTitle(fresh())).toBeNull()
    let s = apply(fresh(), { type: 'local_prompt', content: [text('  fix\nthe   build  ')] })
    expect(derivedTitle(s)).toBe('fix the build')
    s = apply(s, { type: 'local_prompt', content: [text('and then the docs')] })
    expect(derivedTitle(s)).toBe('fix the build')
    expect(derivedTitle({ ...s, title: 'Release prep' })).toBe('Release prep')
  })

  it('is cut to one line of 120 characters, and text no store keeps (a lone surrogate, NUL) is replaced', () => {
    const s = apply(fresh(), { type: 'local_prompt', content: [text(`a\u0000b\uD800c ${'x'.repeat(500)}`)] })
    const title = derivedTitle(s)!
    expect(title.length).toBe(120)
    expect(title.startsWith('a\uFFFDb\uFFFDc x')).toBe(true)
  })
})

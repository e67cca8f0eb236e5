import { describe, expect, it } from 'vitest'
import { carriedDraft, carryDraft, forgetCarriedDraft } from '../../../renderer/screens/carried-draft'

describe('the text carried to a new session’s message box', () => {
  it('is the new session’s alone, until its screen has taken it', () => {
    carryDraft('new-1', 'hello again')
    expect(carriedDraft('other')).toBeNull()
    expect(carriedDraft('new-1')).toBe('hello again')
    forgetCarriedDraft('other')
    expect(carriedDraft('new-1')).toBe('hello again')
    forgetCarriedDraft('new-1')
    expect(carriedDraft('new-1')).toBeNull()
  })

  it('keeps one text: a later carry replaces an earlier one never taken, and an empty box carries nothing', () => {
    carryDraft('new-1', 'first')
    carryDraft('new-2', 'second')
    expect(carriedDraft('new-1')).toBeNull()
    expect(carriedDraft('new-2')).toBe('second')
    carryDraft('new-3', '  \n')
    expect(carriedDraft('new-2')).toBeNull()
    expect(carriedDraft('new-3')).toBeNull()
  })
})

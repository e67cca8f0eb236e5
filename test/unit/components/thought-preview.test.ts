import { describe, expect, it } from 'vitest'
import { thoughtPreview } from '../../../renderer/components/transcript/EntryViews'

describe('the preview of a collapsed thought', () => {
  it('is the title of a first line that is only a bold title, passing over an empty one', () => {
    expect(thoughtPreview('**Reading the request**\n\nThe user wants…')).toBe('Reading the request')
    expect(thoughtPreview('****\n**Planning**')).toBe('Planning')
  })

  it('shows a first line without the markers of its bold and code spans (codex-acp: `**Step 1**: look around`)', () => {
    expect(thoughtPreview('**Step 1**: look around\nmore')).toBe('Step 1: look around')
    expect(thoughtPreview('Run __all__ of `npm test` now')).toBe('Run all of npm test now')
    // A lone marker or a glob is text.
    expect(thoughtPreview('match *.ts and 2 ** 3')).toBe('match *.ts and 2 ** 3')
  })
})

import { describe, expect, it } from 'vitest'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { AgentThought } from '../../../renderer/components/transcript/EntryViews'
import type { MessageEntry } from '../../../common/session/types'

const thought = (text: string): MessageEntry => ({ kind: 'agent_thought', id: 'thought#0', content: [{ type: 'text', text }] })
const preview = (text: string) => /<span class="thought-preview muted">([^<]*)<\/span>/.exec(renderToStaticMarkup(createElement(AgentThought, { entry: thought(text) })))?.[1] ?? null

describe('a collapsed thought', () => {
  it('shows the first line of its trimmed text as the hint, at most 120 characters', () => {
    expect(preview('  \n  first line  \nsecond line\n')).toBe('first line  ')
    expect(preview('only line   \n\n')).toBe('only line')
    expect(preview(`${'x'.repeat(200)}\nmore`)).toBe('x'.repeat(120))
    expect(preview('   \n  ')).toBeNull()
  })

  it('shows a bold title line as its text: Gemini CLI opens every thought with **Subject**', () => {
    expect(preview('**Reading the config**\nI need to look at the settings first.')).toBe('Reading the config')
    expect(preview('__Planning__  \nnext')).toBe('Planning')
    // Gemini's thought without a subject: the empty title is passed over.
    expect(preview('****\nNo subject here.')).toBe('No subject here.')
    expect(preview('****')).toBeNull()
    // Bold inside a line, or two spans on it, stay as written.
    expect(preview('**a** and **b**\nmore')).toBe('**a** and **b**')
    expect(preview('Use **bold** here')).toBe('Use **bold** here')
  })
})

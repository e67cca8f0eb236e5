import { describe, expect, it } from 'vitest'
import { applyCommand, commandText, filterCommands, slashQuery } from '../../../renderer/components/composer/slash-commands'
import type { CommandView } from '../../../common/session/types'

const cmd = (name: string, description = ''): CommandView => ({ name, description, raw: {} })
const commands = [cmd('review', 'Review changes'), cmd('test', 'Run tests'), cmd('compact', 'Summarise to save context'), cmd('pretest', 'Prepare')]

describe('slash-command menu', () => {
  it('opens only while the first word after a leading / is typed', () => {
    expect(slashQuery('/')).toBe('')
    expect(slashQuery('/rev')).toBe('rev')
    expect(slashQuery('/review ')).toBeNull()
    expect(slashQuery('hello /rev')).toBeNull()
    expect(slashQuery(' /rev')).toBeNull()
    expect(slashQuery('')).toBeNull()
  })

  it('stays open while the draft is the start of a command named with several words (Gemini CLI\'s "extensions enable")', () => {
    const gemini = [cmd('extensions', 'Manage extensions.'), cmd('extensions enable', 'Enable an extension.'), cmd('extensions explore', 'Explore')]
    expect(slashQuery('/extensions ena', gemini)).toBe('extensions ena')
    expect(filterCommands(gemini, 'extensions ena').map((c) => c.name)).toEqual(['extensions enable'])
    expect(slashQuery('/Extensions E', gemini)).toBe('Extensions E')
    // The command's input begins: closed, so Enter sends the draft.
    expect(slashQuery('/extensions enable my-ext', gemini)).toBeNull()
    expect(slashQuery('/extensions ', gemini)).toBeNull()
    expect(slashQuery('/extensions ena\nmore', gemini)).toBeNull()
    // Single-word commands: a space still closes the menu.
    expect(slashQuery('/review the diff', commands)).toBeNull()
  })

  it('lists all commands for an empty query and ranks prefix matches first', () => {
    expect(filterCommands(commands, '')).toHaveLength(4)
    expect(filterCommands(commands, 'TES').map((c) => c.name)).toEqual(['test', 'pretest'])
    expect(filterCommands(commands, 'context').map((c) => c.name)).toEqual(['compact'])
    expect(filterCommands(commands, 'zzz')).toEqual([])
  })

  it('inserts the picked command ready for its input', () => {
    expect(applyCommand(cmd('test'))).toBe('/test ')
  })

  it('types a name the agent sent with its slash once (/review, never //review), and matches it after the typed /', () => {
    expect(applyCommand(cmd('/review'))).toBe('/review ')
    expect(commandText(cmd('/review'))).toBe('/review')
    expect(commandText(cmd('review'))).toBe('/review')
    const slashed = [cmd('/review', 'Review changes'), cmd('test'), cmd('/pretest')]
    expect(filterCommands(slashed, 're').map((c) => c.name)).toEqual(['/review', '/pretest'])
    expect(filterCommands(slashed, 'te').map((c) => c.name)).toEqual(['test', '/pretest'])
  })
})

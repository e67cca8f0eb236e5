import { describe, expect, it } from 'vitest'
import { joinArgs, splitArgs } from '../../../main/config/split-args'

describe('splitArgs', () => {
  const table: Array<[string, string[]]> = [
    ['', []],
    ['   ', []],
    ['a', ['a']],
    ['a "b c" \'d e\' f\\ g', ['a', 'b c', 'd e', 'f g']],
    ['  -y   @zed-industries/claude-agent-acp ', ['-y', '@zed-industries/claude-agent-acp']],
    ['--flag=value "x"y\'z\'', ['--flag=value', 'xyz']],
    ['"" \'\'', ['', '']],
    ['"a \\"quoted\\" word"', ['a "quoted" word']],
    ['"keep \\n as is"', ['keep \\n as is']],
    ["'no \\ escapes \"here\"'", ['no \\ escapes "here"']],
    ['$HOME *.ts ~', ['$HOME', '*.ts', '~']],
    ['a\tb\nc', ['a', 'b', 'c']],
    ['one \\\ntwo', ['one', 'two']],
    ['C:\\\\path\\\\to', ['C:\\path\\to']],
  ]
  it.each(table)('splits %j', (text, argv) => {
    expect(splitArgs(text)).toEqual({ ok: true, argv })
  })

  it.each([
    ['a "b c', 'double', 2],
    ["a 'b", 'single', 2],
    ['"unterminated \\"', 'double', 0],
  ])('reports an unbalanced quote in %j', (text, kind, index) => {
    const result = splitArgs(text)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.message).toContain(`Unbalanced ${kind} quote`)
      expect(result.index).toBe(index)
    }
  })

  it('reports a trailing backslash', () => {
    expect(splitArgs('a \\')).toMatchObject({ ok: false, message: expect.stringContaining('backslash') })
  })
})

describe('joinArgs', () => {
  it.each([
    [['-y', '@zed-industries/claude-agent-acp']],
    [['b c', "it's", 'say "hi" $HOME `x` \\']],
    [['', 'plain', 'tab\there']],
    [['--config={"a":1}']],
  ])('quotes %j so it splits back unchanged', (argv) => {
    expect(splitArgs(joinArgs(argv))).toEqual({ ok: true, argv })
  })

  it('leaves plain words unquoted', () => {
    expect(joinArgs(['-y', '@zed-industries/codex-acp', 'a=b'])).toBe('-y @zed-industries/codex-acp a=b')
  })
})

import { describe, expect, it } from 'vitest'
import { applyActions } from '../../../common/session/reducer'
import { SharedStrings, sharedStrings } from '../../../common/session/shared-strings'
import type { ToolCallEntry } from '../../../common/session/types'
import { deepFreeze, session } from './helpers'

describe('SharedStrings', () => {
  it('keeps each text once, however often it is shared', () => {
    const table = new SharedStrings(10, 1000, 100)
    for (let i = 0; i < 3; i++) for (const text of ['a', 'bb', 'ccc']) expect(table.share(text)).toBe(text)
    expect(table.size).toEqual({ strings: 3, chars: 6 })
  })

  it('keeps neither empty texts nor texts past its length bound', () => {
    const table = new SharedStrings(10, 1000, 4)
    expect(table.share('')).toBe('')
    expect(table.share('12345')).toBe('12345')
    expect(table.size).toEqual({ strings: 0, chars: 0 })
  })

  it('holds at most two generations of strings: the older goes when the newer is full', () => {
    const table = new SharedStrings(3, 1000, 100)
    for (let i = 0; i < 100; i++) table.share(`text ${i}`)
    expect(table.size.strings).toBeLessThanOrEqual(6)
    // The newest are still there (sharing them adds nothing).
    const before = table.size
    table.share('text 99')
    expect(table.size).toEqual(before)
  })

  it('bounds the characters of a generation as well as its strings', () => {
    const table = new SharedStrings(1000, 10, 100)
    for (let i = 0; i < 50; i++) table.share(`${i}`.padStart(6, 'x'))
    expect(table.size.chars).toBeLessThanOrEqual(2 * 10)
  })

  it('moves a string that is shared again from the older generation into the newer', () => {
    const table = new SharedStrings(2, 1000, 100)
    table.share('kept')
    table.share('b')
    table.share('c') // 'kept' and 'b' are now the older generation
    table.share('kept') // back in the newer one, beside 'c'
    table.share('d') // the newer is full: 'kept' and 'c' become the older, 'b' goes
    table.share('e')
    expect(table.size).toEqual({ strings: 4, chars: 'kept'.length + 3 })
  })
})

describe('the session reducer shares tool calls’ paths and diff texts', () => {
  const diff = (path: string) => ({ type: 'diff', path, oldText: 'const a = 1\n', newText: 'const a = 2\n' })

  it('stores copies of the agent’s diffs and locations, equal to them, and leaves the update as it came', () => {
    const update = deepFreeze({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Edit',
      kind: 'edit',
      status: 'completed',
      content: [diff('/p/a.ts')],
      locations: [{ path: '/p/a.ts', line: 3 }],
    })
    const next = applyActions(session(), [{ type: 'updates', updates: [update] }])
    const entry = next.entries[0] as ToolCallEntry
    expect(entry.content).toEqual([diff('/p/a.ts')])
    expect(entry.content[0]).not.toBe(update.content[0])
    expect(entry.locations).toEqual([{ path: '/p/a.ts', line: 3 }])
    expect(entry.locations[0]).not.toBe(update.locations[0])
  })

  it('keeps a diff’s own fields, in their order, and a location without a valid line loses only the line', () => {
    const update = {
      sessionUpdate: 'tool_call',
      toolCallId: 'c2',
      title: 'Edit',
      content: [{ type: 'diff', path: '/p/b.ts', newText: 'x', oldText: null, _meta: { k: 1 } }],
      locations: [{ path: '/p/b.ts', line: 0, extra: true }],
    }
    const entry = applyActions(session(), [{ type: 'updates', updates: [update] }]).entries[0] as ToolCallEntry
    expect(JSON.stringify(entry.content[0])).toBe(JSON.stringify(update.content[0]))
    expect(entry.locations).toEqual([{ path: '/p/b.ts', extra: true }])
  })

  it('puts the texts of the session’s diffs and locations in the shared table', () => {
    const path = `/p/${Math.random()}.ts`
    const before = sharedStrings.size.strings
    const updates = [1, 2, 3].map((n) => ({ sessionUpdate: 'tool_call', toolCallId: `d${n}`, title: 'Edit', content: [diff(path)], locations: [{ path }] }))
    applyActions(session(), [{ type: 'updates', updates }])
    // The path and the two texts, once each (the texts may have been there already).
    expect(sharedStrings.size.strings - before).toBeGreaterThanOrEqual(1)
    expect(sharedStrings.size.strings - before).toBeLessThanOrEqual(3)
  })
})

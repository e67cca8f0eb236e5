import { describe, expect, it } from 'vitest'
import { applyActions, createSessionState } from '../../../common/session/reducer'
import { exportFileName, exportTitle, sessionToJson, sessionToMarkdown } from '../../../main/history/export'
import { snippetOf } from '../../../main/history/service'
import { toFtsQuery } from '../../../main/history/sqlite-history-store'

const session = () =>
  applyActions(createSessionState({ sessionId: 'a/s1', acpSessionId: 's1', agentId: 'a', protocolVersion: 1, cwd: '/src/app' }), [
    { type: 'local_prompt', content: [{ type: 'text', text: 'Show me ```fences```' }] },
    { type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'Here you go' } }] },
    {
      type: 'updates',
      updates: [{ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Run it', kind: 'execute', status: 'completed', rawInput: { command: 'echo "````"' }, content: [{ type: 'content', content: { type: 'text', text: 'out ```` put' } }] }],
    },
  ])

describe('export', () => {
  it('writes Markdown whose code fences cannot be closed by the content', () => {
    const markdown = sessionToMarkdown(session(), undefined)
    // Titled as the history lists it: here after the first prompt.
    expect(markdown).toMatch(/^# Show me ```fences```\n/)
    expect(markdown).toContain('## You\n\nShow me ```fences```')
    expect(markdown).toContain('### Tool: Run it (execute, completed)')
    // The output holds a run of four backticks: its fence has five.
    expect(markdown).toContain('`````\nout ```` put\n`````')
  })

  it("says where a turn stopped early, in the turn's place", () => {
    const state = applyActions(session(), [{ type: 'turn_started' }, { type: 'cancel_requested' }, { type: 'turn_ended', stopReason: 'cancelled' }, { type: 'local_prompt', content: [{ type: 'text', text: 'go on' }] }])
    expect(sessionToMarkdown(state, undefined)).toContain('put\n`````\n\n_Stopped. The agent ended the turn when asked to._\n\n## You\n\ngo on')
  })

  it('titles a session without a title or a prompt after its folder, as the history names it', () => {
    const empty = createSessionState({ sessionId: 'a/s2', acpSessionId: 's2', agentId: 'a', protocolVersion: 1, cwd: '/src/app/' })
    expect(sessionToMarkdown(empty, undefined)).toMatch(/^# Session in app\n/)
    expect(exportTitle(empty, undefined)).toBe('Session in app')
    expect(exportTitle(empty, { title: 'Renamed' } as Parameters<typeof exportTitle>[1])).toBe('Renamed')
  })

  it('writes the diffs of a v2 agent (changes and their patch), as the card shows them', () => {
    const patch = 'diff --git /src/app/a.md /src/app/a.md\n--- /src/app/a.md\n+++ /src/app/a.md\n@@ -1 +1 @@\n-old\n+new\n'
    const state = applyActions(createSessionState({ sessionId: 'a/s2', agentId: 'a', protocolVersion: 2, cwd: '/src/app' }), [
      {
        type: 'updates',
        updates: [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: 'e',
            title: 'Edit a.md',
            kind: 'edit',
            status: 'completed',
            content: [
              { type: 'diff', changes: [{ operation: 'modify', path: '/src/app/a.md', fileType: 'text' }], patch: { format: 'git_patch', text: patch } },
              { type: 'diff', changes: [{ operation: 'move', oldPath: '/src/app/b.md', path: '/src/app/c.md' }] },
            ],
          },
        ],
      },
    ])
    const markdown = sessionToMarkdown(state, undefined)
    expect(markdown).toContain(`Diff of \`/src/app/a.md\` (modify):\n\`\`\`diff\n${patch}\n\`\`\``)
    expect(markdown).toContain('Diff of `/src/app/b.md` → `/src/app/c.md` (move):')
  })

  it("writes a terminal's output as the text it left (no colour codes, a progress bar at its last frame), and what Bosun wrote for a call that the content no longer shows", () => {
    const state = applyActions(session(), [
      { type: 'updates', updates: [{ sessionUpdate: 'tool_call', toolCallId: 'sh', title: 'ls', kind: 'execute', status: 'completed', content: [{ type: 'terminal', terminalId: 'sh' }], rawInput: { command: 'ls' }, _meta: { terminal_info: { terminal_id: 'sh' } } }] },
      { type: 'updates', updates: [{ sessionUpdate: 'tool_call_update', toolCallId: 'sh', _meta: { terminal_output: { terminal_id: 'sh', data: '\x1b[01;34mbin\x1b[0m\r\nstep 1\rstep 2\r\n' } } }] },
      { type: 'updates', updates: [{ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'write', kind: 'edit', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Wrote file successfully.' } }] }] },
      { type: 'file_written', toolCallId: 'w', writtenDiffs: [{ type: 'diff', path: '/src/app/made.md', oldText: null, newText: '# Made\n' }] },
    ])
    const markdown = sessionToMarkdown(state, undefined)
    expect(markdown).toContain('Terminal `ls`:\n```\nbin\nstep 2\n\n```')
    expect(markdown).not.toContain('\x1b')
    expect(markdown).toContain('Written by Bosun for the agent, `/src/app/made.md`:\n```diff\n--- old\n\n+++ new\n# Made\n\n```')
  })

  it('writes which lines of which files Bosun read for a call, not their text', () => {
    const state = applyActions(session(), [
      { type: 'updates', updates: [{ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'Read', kind: 'read', status: 'completed' }] },
      { type: 'file_read', toolCallId: 'r', filesRead: [{ path: '/src/app/a.ts', line: 10, limit: 5, lines: 5, times: 2 }] },
    ])
    expect(sessionToMarkdown(state, undefined)).toContain('Read by Bosun for the agent, `/src/app/a.ts`: lines 10–14, read 2 times')
  })

  it("says where an image was (its type and size) and keeps a tool's output that already came as one fenced block unfenced again", () => {
    // As claude-agent-acp 0.101 answers Read: a PNG as an image block, a text file as a fenced block (its own backticks).
    const png = Buffer.alloc(1500, 7).toString('base64')
    const state = applyActions(session(), [
      { type: 'local_prompt', content: [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/jpeg', data: Buffer.alloc(3000).toString('base64') }] },
      {
        type: 'updates',
        updates: [
          { sessionUpdate: 'tool_call', toolCallId: 'img', title: 'Read pic.png', kind: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data: png } }] },
          { sessionUpdate: 'tool_call', toolCallId: 'txt', title: 'Read notes.txt', kind: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '```\n1\thello\n```' } }] },
          { sessionUpdate: 'tool_call', toolCallId: 'two', title: 'Two blocks', kind: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '```\na\n```\nand\n```\nb\n```' } }] },
        ],
      },
    ])
    const markdown = sessionToMarkdown(state, undefined)
    expect(markdown).toContain('### Tool: Read pic.png (read, completed)\n\n_(image, image/png, 1 KiB; its data is in the JSON export)_')
    expect(markdown).toContain('## You\n\nlook\n\n_(image, image/jpeg, 3 KiB; its data is in the JSON export)_')
    expect(markdown).toContain('### Tool: Read notes.txt (read, completed)\n\n```\n1\thello\n```')
    expect(markdown).not.toContain('````\n```\n1\thello')
    // Text that only starts and ends with a fence is more than one block: fenced whole, as before.
    expect(markdown).toContain('````\n```\na\n```\nand\n```\nb\n```\n````')
  })

  it("writes a turn's error once, in its place (the closed-mid-turn Claude session ended with it twice)", () => {
    const state = applyActions(session(), [{ type: 'turn_started' }, { type: 'turn_ended', stopReason: null, error: { message: 'Interrupted: Bosun was closed while this turn was running.', byBosun: true } }])
    const markdown = sessionToMarkdown(state, undefined)
    expect(markdown.split('Bosun was closed while this turn was running.').length - 1).toBe(1)
    expect(markdown).toMatch(/_Interrupted: Bosun was closed while this turn was running\._\n$/)
    // A session with no entries has nowhere to mark it: it is said at the end.
    const empty = applyActions(createSessionState({ sessionId: 'a/s3', agentId: 'a', protocolVersion: 1, cwd: '/src/app' }), [
      { type: 'turn_started' },
      { type: 'turn_ended', stopReason: null, error: { message: 'Agent exited' } },
    ])
    expect(sessionToMarkdown(empty, undefined)).toContain('_Agent exited_')
  })

  it('writes JSON that reads back to the same entries', () => {
    const state = session()
    const json = JSON.parse(sessionToJson(state, undefined))
    expect(json).toMatchObject({ format: 'bosun-session', version: 1, session: { sessionId: 'a/s1', cwd: '/src/app' } })
    expect(json.session.entries).toEqual(JSON.parse(JSON.stringify(state.entries)))
  })

  it('names the file after the title, safely', () => {
    expect(exportFileName('Fix ../../etc/passwd & more', 'markdown')).toBe('Fix-etc-passwd-more.md')
    expect(exportFileName(null, 'json')).toBe('session.json')
    expect(exportFileName('///', 'json')).toBe('session.json')
  })
})

describe('search input and snippets', () => {
  it('quotes every word and makes the last a prefix', () => {
    expect(toFtsQuery('refactor the Pars')).toBe('"refactor" "the" "pars"*')
    expect(toFtsQuery('  "" OR ** ')).toBe('"or"*')
    expect(toFtsQuery('()*')).toBeNull()
  })

  it('cuts a snippet around the first match and marks it', () => {
    const text = `${'a '.repeat(200)}the Tokenizer broke ${'b '.repeat(200)}`
    const snippet = snippetOf(text, 'tokenizer')
    expect(snippet).toContain('\u0002Tokenizer\u0003')
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    expect(snippet.length).toBeLessThan(200)
    // Marks in the text itself cannot fake a match.
    expect(snippetOf('x \u0002y\u0003 tokenizer', 'tokenizer')).toBe('x y \u0002tokenizer\u0003')
  })
})

/** The MCP server editor's model: rows to env/headers and secrets, stored secrets never sent back, agents by id. */
import { describe, expect, it } from 'vitest'
import { emptyForm, emptyRow, formOf, idFor, toRequest, usedBy, type McpForm } from '../../../renderer/components/mcp/mcp-form'
import type { McpServerView } from '../../../common/contract/mcp'

const agents = [
  { id: 'alpha', name: 'Alpha' },
  { id: 'beta', name: 'Beta' },
]
const http = (patch: Partial<McpForm>): McpForm => ({ ...emptyForm(), name: 'Web', transport: 'http', url: 'https://mcp.example', ...patch })

describe('MCP editor model', () => {
  it('sends plain rows as headers, new secret values once, and only the chosen agents', () => {
    const form = http({
      rows: [
        { ...emptyRow(), name: 'X-Team', value: 'blue' },
        { ...emptyRow(), name: 'Authorization', value: 'Bearer k', secret: true },
        { ...emptyRow(), name: '', value: '' },
      ],
      useWith: 'only',
      agents: ['beta', 'gone'],
    })
    expect(toRequest(form, new Set(['web']), agents)).toEqual({
      ok: true,
      request: {
        server: { id: 'web-2', name: 'Web', transport: 'http', enabled: true, agents: ['beta'], url: 'https://mcp.example', headers: { 'X-Team': 'blue' }, secretHeaders: ['Authorization'] },
        secrets: { Authorization: 'Bearer k' },
      },
    })
  })

  it('keeps a stored secret by name only, unless it is being replaced', () => {
    const view: McpServerView = { id: 'tool', name: 'Tool', transport: 'stdio', enabled: true, agents: null, command: 'tool', args: ['-v'], env: { A: '1' }, secretEnv: ['TOKEN'], secretsSet: { TOKEN: true } }
    const form = formOf(view)
    expect(form.rows.map((r) => [r.name, r.secret, r.stored, r.isSet, r.value])).toEqual([
      ['A', false, false, false, '1'],
      ['TOKEN', true, true, true, ''],
    ])
    const kept = toRequest(form, new Set(['tool']), agents)
    expect(kept).toMatchObject({ ok: true, request: { server: { id: 'tool', env: { A: '1' }, secretEnv: ['TOKEN'], agents: null }, secrets: {} } })
    const replacing = { ...form, rows: form.rows.map((r) => (r.stored ? { ...r, replacing: true } : r)) }
    expect(toRequest(replacing, new Set(), agents)).toMatchObject({ ok: false, message: expect.stringContaining('TOKEN') })
    const replaced = { ...form, rows: form.rows.map((r) => (r.stored ? { ...r, replacing: true, value: 'new' } : r)) }
    expect(toRequest(replaced, new Set(), agents)).toMatchObject({ ok: true, request: { secrets: { TOKEN: 'new' } } })
  })

  it('keeps saved arguments exactly (a space inside one) unless they were changed', () => {
    const view: McpServerView = { id: 'tool', name: 'Tool', transport: 'stdio', enabled: true, agents: null, command: 'tool', args: ['--root', '/my files'], env: {}, secretsSet: {} }
    const form = formOf(view)
    expect(toRequest(form, new Set(), agents)).toMatchObject({ ok: true, request: { server: { args: ['--root', '/my files'] } } })
    expect(toRequest({ ...form, args: '--root /srv' }, new Set(), agents)).toMatchObject({ ok: true, request: { server: { args: ['--root', '/srv'] } } })
  })

  it('says what is wrong: no agent chosen, a secret without a value, a bad or repeated name', () => {
    expect(toRequest(http({ useWith: 'only', agents: [] }), new Set(), agents)).toMatchObject({ ok: false, message: expect.stringContaining('at least one agent') })
    expect(toRequest(http({ rows: [{ ...emptyRow(), name: 'Key', secret: true }] }), new Set(), agents)).toMatchObject({ ok: false })
    expect(toRequest(http({ rows: [{ ...emptyRow(), name: 'Bad Name', value: 'x' }] }), new Set(), agents)).toMatchObject({ ok: false })
    expect(toRequest(http({ rows: [{ ...emptyRow(), name: 'A', value: 'x' }, { ...emptyRow(), name: 'a', value: 'y' }] }), new Set(), agents)).toMatchObject({ ok: false })
    expect(toRequest(http({ url: 'ftp://x' }), new Set(), agents)).toMatchObject({ ok: false })
  })

  it('names ids from names and says who uses a server', () => {
    expect(idFor('  My Tools! ', new Set(['my-tools']))).toBe('my-tools-2')
    expect(usedBy({ agents: null }, agents)).toBe('All agents')
    expect(usedBy({ agents: ['beta', 'old'] }, agents)).toBe('Only Beta, old (removed)')
    expect(usedBy({ agents: [] }, agents)).toBe('No agent (its agents were removed)')
  })
})

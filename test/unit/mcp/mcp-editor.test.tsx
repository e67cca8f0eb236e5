/** The MCP server editor's markup: a stored secret shows as such (Replace, Remove), never as a value field; no keychain, no new secrets. */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { McpServerEditor } from '../../../renderer/components/mcp/McpServerEditor'
import { emptyForm, formOf } from '../../../renderer/components/mcp/mcp-form'
import type { McpServerView } from '../../../common/contract/mcp'

const view: McpServerView = {
  id: 'web',
  name: 'Web',
  transport: 'http',
  enabled: true,
  agents: ['alpha'],
  url: 'https://mcp.example',
  headers: { 'X-Team': 'blue' },
  secretHeaders: ['Authorization'],
  secretsSet: { Authorization: true },
}
const agents = [
  { id: 'alpha', name: 'Alpha' },
  { id: 'beta', name: 'Beta' },
]
const render = (keychainAvailable: boolean) =>
  renderToStaticMarkup(
    <McpServerEditor label="Edit Web" initial={formOf(view)} agents={agents} taken={new Set()} submitLabel="Save changes" keychainAvailable={keychainAvailable} onSave={async () => null} />,
  )
/** The opening tag of the element with this accessible label (static markup: no DOM in the unit project). */
const tag = (html: string, label: string) => html.match(new RegExp(`<[^>]*aria-label="${label}"[^>]*>`))?.[0]
const disabled = (html: string, label: string) => / disabled=""/.test(tag(html, label) ?? '')

describe('McpServerEditor', () => {
  it('shows a stored secret as stored, with Replace and Remove, and no field holding a value', () => {
    const html = render(true)
    expect(html).toContain('stored in the keychain')
    expect(tag(html, 'Replace Authorization')).toBeDefined()
    expect(disabled(html, 'Replace Authorization')).toBe(false)
    expect(tag(html, 'Remove Authorization')).toBeDefined()
    expect(tag(html, 'Value of Authorization')).toBeUndefined()
    expect(tag(html, 'Value of X-Team')).toContain('value="blue"')
    // Only these agents, by name: alpha checked, beta not.
    expect(html).toMatch(/<input type="checkbox" checked=""\/>Alpha/)
    expect(html).toMatch(/<input type="checkbox"\/>Beta/)
  })

  it('without a keychain, a plain row cannot become secret and a stored one cannot be replaced', () => {
    const html = render(false)
    expect(disabled(html, 'X-Team is secret')).toBe(true)
    expect(disabled(html, 'Replace Authorization')).toBe(true)
    expect(disabled(html, 'Remove Authorization')).toBe(false)
  })

  it('says what a server still needs beside its disabled Add button, and the button is described by it', () => {
    const html = renderToStaticMarkup(<McpServerEditor label="Add a server" initial={emptyForm()} agents={agents} taken={new Set()} submitLabel="Add server" onSave={async () => null} />)
    const button = html.match(/<button type="submit"[^>]*>Add server<\/button>/)?.[0] ?? ''
    expect(button).toContain('disabled=""')
    const described = button.match(/aria-describedby="([^"]+)"/)?.[1]
    expect(described).toBeDefined()
    expect(html).toMatch(new RegExp(`id="${described}"[^>]*>Needs a name and a command.<`))
    // Filled in, nothing is missing: no note, no description.
    const filled = renderToStaticMarkup(<McpServerEditor label="Edit Web" initial={formOf(view)} agents={agents} taken={new Set()} submitLabel="Save changes" onSave={async () => null} />)
    expect(filled).not.toContain('Needs a name')
    expect(filled.match(/<button type="submit"[^>]*>/)?.[0]).not.toContain('aria-describedby')
  })
})

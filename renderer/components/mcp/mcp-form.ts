/**
 * The MCP server editor's model, without React: rows of env variables (stdio) or headers (http, sse), each
 * plain or secret, and which agents use the server. A stored secret is only a name and whether it is set:
 * its value never comes back from main; a new value typed here goes out once, in `secrets`.
 */
import { HEADER_NAME_PATTERN } from '../../../common/http-header'
import type { AgentDefinitionView } from '../../../common/contract/agents'
import type { McpServerConfig, McpServerView } from '../../../common/contract/mcp'

export interface PairRow {
  key: number
  name: string
  /** The plain value, or the new secret value being typed. */
  value: string
  secret: boolean
  /** A secret saved before: its name is fixed, its value is in the keychain (never here). */
  stored: boolean
  /** Whether the keychain holds its value (stored rows). */
  isSet: boolean
  /** A new value is being typed for a stored secret. */
  replacing: boolean
}

export interface McpForm {
  id: string | null
  name: string
  transport: McpServerConfig['transport']
  enabled: boolean
  command: string
  /** Split on whitespace when changed; left as it was, the saved arguments are kept exactly (spaces inside one included). */
  args: string
  savedArgs: string[]
  url: string
  /** Env variables (stdio) or headers (http, sse), as the transport says. */
  rows: PairRow[]
  /** `all` = every agent (`agents: null`). */
  useWith: 'all' | 'only'
  agents: string[]
}

let nextKey = 0
export const emptyRow = (): PairRow => ({ key: ++nextKey, name: '', value: '', secret: false, stored: false, isSet: false, replacing: false })

export const emptyForm = (): McpForm => ({ id: null, name: '', transport: 'stdio', enabled: true, command: '', args: '', savedArgs: [], url: '', rows: [], useWith: 'all', agents: [] })

export function formOf(server: McpServerView): McpForm {
  const plain = server.transport === 'stdio' ? server.env : server.headers
  const secret = server.transport === 'stdio' ? server.secretEnv : server.secretHeaders
  return {
    id: server.id,
    name: server.name,
    transport: server.transport,
    enabled: server.enabled,
    command: server.command ?? '',
    args: (server.args ?? []).join(' '),
    savedArgs: server.args ?? [],
    url: server.url ?? '',
    rows: [
      ...Object.entries(plain ?? {}).map(([name, value]) => ({ ...emptyRow(), name, value })),
      ...(secret ?? []).map((name) => ({ ...emptyRow(), name, secret: true, stored: true, isSet: server.secretsSet[name] === true })),
    ],
    useWith: server.agents === null ? 'all' : 'only',
    agents: server.agents ?? [],
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A server id from its name (lower-case words joined by `-`), unique among `taken`. */
export function idFor(name: string, taken: ReadonlySet<string>): string {
  const base = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56) || 'server'
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  return id
}

export type SaveRequest = { server: McpServerConfig; secrets: Record<string, string> }

/** The save request, or what is wrong with the form (one message, for the form's alert). */
export function toRequest(form: McpForm, taken: ReadonlySet<string>, agents: readonly Pick<AgentDefinitionView, 'id'>[]): { ok: true; request: SaveRequest } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message })
  const name = form.name.trim()
  if (!name) return bad('Give the server a name.')
  const stdio = form.transport === 'stdio'
  if (stdio && !form.command.trim()) return bad('Enter the command that starts the server.')
  if (!stdio && !/^https?:\/\/\S+$/i.test(form.url.trim())) return bad('Enter the server’s http(s) address.')
  const what = stdio ? 'variable' : 'header'
  const plain: Record<string, string> = {}
  const secretNames: string[] = []
  const secrets: Record<string, string> = {}
  const seen = new Set<string>()
  for (const row of form.rows) {
    const rowName = row.name.trim()
    if (!rowName && !row.value) continue
    if (!rowName) return bad(`A ${what} has a value but no name.`)
    if (!(stdio ? ENV_NAME : HEADER_NAME_PATTERN).test(rowName)) return bad(stdio ? `${rowName} is not a variable name (letters, digits and _, not starting with a digit).` : `${rowName} is not a header name.`)
    const folded = stdio ? rowName : rowName.toLowerCase()
    if (seen.has(folded)) return bad(`${rowName} is listed twice.`)
    seen.add(folded)
    if (!row.secret) {
      plain[rowName] = row.value
      continue
    }
    secretNames.push(rowName)
    const typing = !row.stored || row.replacing
    if (typing && !row.value) return bad(`Enter the value of the secret ${what} ${rowName}${row.stored ? ', or cancel the replacement' : ''}.`)
    if (typing) secrets[rowName] = row.value
  }
  let chosen: string[] | null = null
  if (form.useWith === 'only') {
    const known = new Set(agents.map((a) => a.id))
    chosen = form.agents.filter((id) => known.has(id))
    if (chosen.length === 0) return bad('Choose at least one agent, or “All agents”.')
  }
  const id = form.id ?? idFor(name, taken)
  const common = { id, name, transport: form.transport, enabled: form.enabled, agents: chosen }
  const args = form.args === form.savedArgs.join(' ') ? form.savedArgs : form.args.trim() ? form.args.trim().split(/\s+/) : []
  const server: McpServerConfig = stdio
    ? { ...common, command: form.command.trim(), args, env: plain, ...(secretNames.length ? { secretEnv: secretNames } : {}) }
    : { ...common, url: form.url.trim(), headers: plain, ...(secretNames.length ? { secretHeaders: secretNames } : {}) }
  return { ok: true, request: { server, secrets } }
}

/** "All agents", or the names of the listed ones (an id no agent has any more is shown as such). */
export function usedBy(server: Pick<McpServerConfig, 'agents'>, agents: readonly Pick<AgentDefinitionView, 'id' | 'name'>[]): string {
  if (server.agents === null) return 'All agents'
  // Every agent it was chosen for was removed.
  if (server.agents.length === 0) return 'No agent (its agents were removed)'
  const names = server.agents.map((id) => agents.find((a) => a.id === id)?.name ?? `${id} (removed)`)
  return `Only ${names.join(', ')}`
}

/**
 * Who the agent says it is signed in as. claude-agent-acp pushes `_auth/status_update` with `{ authStatus }`
 * (an interim extension, connection-scoped, never asked for): `{ kind, label, detail?, account?: { email? } }`,
 * where `kind: "none"` is a known signed-out state and silence means "not known". Read leniently and bounded: the
 * agent's words are shown as they are, cut short, and never decide anything in Bosun.
 */
import type { AgentAccountView } from '../../common/contract/agent-tools'
import { record } from '../acp/handshake'
import { printable } from '../acp/ndjson'

export const AUTH_STATUS_UPDATE = '_auth/status_update'

const MAX_KIND = 40
const MAX_LABEL = 120
const MAX_DETAIL = 200

const text = (value: unknown, max: number): string | undefined => {
  if (typeof value !== 'string') return undefined
  // Whitespace (tabs, line breaks) becomes one space first; any other control character is shown as one.
  const clean = printable(value.slice(0, max * 4).replace(/\s+/g, ' ').trim(), max)
  return clean === '' ? undefined : clean
}

/** The account an `_auth/status_update` reports, or `undefined` for a payload that says nothing readable. */
export function readAuthStatus(params: unknown): AgentAccountView | undefined {
  const status = record(record(params)?.authStatus)
  if (!status) return undefined
  const kind = text(status.kind, MAX_KIND)
  const label = text(status.label, MAX_LABEL)
  if (!kind || !label) return undefined
  const detail = text(status.detail, MAX_DETAIL) ?? text(record(status.account)?.email, MAX_DETAIL)
  return { signedIn: kind !== 'none', kind, label, ...(detail ? { detail } : {}) }
}

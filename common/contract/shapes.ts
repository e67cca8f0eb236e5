import { z } from 'zod'
import type { AgentRuntimeView, ElicitationView, PermissionRequestView, SessionAction, SessionState } from '../session/types'

/**
 * Runtime checks for what main sends the renderer (call results and events). Main is trusted, and the
 * bulky payloads (a session's state, batches of reducer actions on the streaming hot path) are checked
 * at their envelope only: the reducer reads agent data defensively, so a deep parse here would only
 * copy it a second time. The TypeScript type of each schema is the full one.
 */
function shaped<T>(schema: z.ZodType): z.ZodType<T> {
  return z.custom<T>((value) => schema.safeParse(value).success)
}

const protocolVersion = z.union([z.literal(1), z.literal(2)])

export const sessionStateShape = shaped<SessionState>(
  z.looseObject({
    sessionId: z.string(),
    acpSessionId: z.string(),
    agentId: z.string(),
    protocolVersion,
    cwd: z.string(),
    entries: z.array(z.looseObject({ kind: z.string() })),
    seq: z.number().int().nonnegative(),
  }),
)

export const sessionActionsShape = shaped<SessionAction[]>(z.array(z.looseObject({ type: z.string() })))

export const agentRuntimeViewShape = shaped<AgentRuntimeView>(
  z.looseObject({
    agentId: z.string(),
    name: z.string(),
    status: z.enum(['stopped', 'starting', 'ready', 'restarting', 'crashed', 'failed']),
  }),
)

export const permissionRequestViewShape = shaped<PermissionRequestView>(
  z.looseObject({
    requestId: z.string(),
    agentId: z.string(),
    sessionId: z.string(),
    title: z.string(),
    subject: z.looseObject({ type: z.string() }),
    options: z.array(z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() })),
  }),
)

export const elicitationViewShape = shaped<ElicitationView>(
  z.looseObject({
    elicitationRequestId: z.string(),
    agentId: z.string(),
    agentName: z.string(),
    sessionId: z.string().nullable(),
    mode: z.enum(['form', 'url']),
    message: z.string(),
    status: z.string(),
  }),
)

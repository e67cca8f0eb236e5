/**
 * A fake `BosunApi` for the dev preview: canned sessions (see fixtures.ts) and a scripted agent that streams
 * a Markdown answer when prompted. No backend, no network.
 */
import type { BosunApi, CallResult } from '../../common/contract'
import { createSessionState } from '../../common/session/reducer'
import type { AgentRuntimeView, ElicitationView, SessionAction, SessionState } from '../../common/session/types'
import { createFixtures } from './fixtures'

type Listener = (payload: never) => void

const ok = <T>(value: T): Promise<CallResult<T>> => Promise.resolve({ ok: true, value })

const ANSWER = `Sure — here is what I found.

The middleware now **awaits** \`verifyToken()\` and returns \`null\` for anonymous requests:

\`\`\`ts
const user = await authenticate(req)
if (!user) return unauthorized()
\`\`\`

Next I would add a test for expired tokens. Want me to go ahead?`

export interface FakeBosun {
  api: BosunApi
  /** Pushes actions into a session as main would (a new batch with the next seq). */
  emitActions(sessionId: string, actions: SessionAction[]): void
}

export function createFakeBosun(options: { streamDelayMs?: number } = {}): FakeBosun {
  const fixtures = createFixtures()
  const seqs = new Map(fixtures.sessions.map((s) => [s.sessionId, s.seq]))
  const agents = new Map(fixtures.agents.map((a) => [a.agentId, a]))
  const listeners = new Map<string, Set<Listener>>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const delay = options.streamDelayMs ?? 40
  const startAfterAnswer = new Map<string, (status: ElicitationView['status']) => void>()

  const emit = (name: string, payload: unknown) => {
    for (const l of [...(listeners.get(name) ?? [])]) (l as (p: unknown) => void)(payload)
  }
  const on = (name: string) => (listener: Listener) => {
    if (!listeners.has(name)) listeners.set(name, new Set())
    listeners.get(name)!.add(listener)
    return () => void listeners.get(name)!.delete(listener)
  }
  const emitActions = (sessionId: string, actions: SessionAction[]) => {
    const seq = (seqs.get(sessionId) ?? 0) + 1
    seqs.set(sessionId, seq)
    emit('sessionActions', { sessionId, seq, actions })
  }
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const setAgent = (agent: AgentRuntimeView) => {
    agents.set(agent.agentId, agent)
    emit('agentStatus', agent)
  }

  const calls = {
    appInfo: () => ok({ name: 'Bosun', version: '0.1.0-dev', host: 'web' as const, platform: 'linux' }),
    getSnapshot: () => ok({ agents: [...agents.values()], sessions: createFixtures().sessions.map((s) => ({ ...s, seq: seqs.get(s.sessionId) ?? s.seq })) }),
    newSession: ({ agentId, cwd }: { agentId: string; cwd: string }) => {
      const sessionId = `sess-${agentId}-${Date.now()}`
      const create = () => {
        const session: SessionState = createSessionState({ sessionId, agentId, protocolVersion: 1, cwd })
        seqs.set(sessionId, 0)
        emit('sessionAdded', { session })
        return { ok: true as const, value: { sessionId } }
      }
      if (agentId !== 'gemini') return Promise.resolve(create())
      // Gemini asks a question while starting (a request-scoped elicitation) and starts once answered.
      const elicitation: ElicitationView = {
        elicitationRequestId: `el-${Date.now()}`,
        agentId,
        agentName: 'Gemini CLI',
        sessionId: null,
        mode: 'form',
        message: 'Which Google Cloud project should this session bill to?',
        requestedSchema: { type: 'object', properties: { project: { type: 'string', title: 'Project ID' } }, required: ['project'] },
        createdAt: Date.now(),
        status: 'pending',
      }
      emit('requestScopedElicitation', { change: 'added', elicitation, scopeRequestId: 7 })
      return new Promise<CallResult<{ sessionId: string }>>((resolve) => startAfterAnswer.set(elicitation.elicitationRequestId, (status) => {
        emit('requestScopedElicitation', { change: 'updated', elicitation: { ...elicitation, status }, scopeRequestId: 7 })
        resolve(status === 'accepted' ? create() : { ok: false, error: { kind: 'cancelled', message: 'You declined; the session was not started.' } })
      }))
    },
    respondElicitation: ({ elicitationRequestId, action }: { elicitationRequestId: string; action: string }) => {
      const start = startAfterAnswer.get(elicitationRequestId)
      startAfterAnswer.delete(elicitationRequestId)
      start?.(action === 'accept' ? 'accepted' : action === 'decline' ? 'declined' : 'cancelled')
      return ok(undefined)
    },
    prompt: ({ sessionId, prompt }: { sessionId: string; prompt: { type: string; text?: string }[] }) => {
      emitActions(sessionId, [{ type: 'local_prompt', content: prompt as never }, { type: 'turn_started' }])
      const words = ANSWER.split(/(?<=\s)/)
      const messageId = `m-${Date.now()}`
      return new Promise<CallResult<{ stopReason: string | null }>>((resolve) => {
        let i = 0
        const step = () => {
          if (i >= words.length) {
            // v2 turns end with an idle state_update; v1 with the prompt response.
            emitActions(sessionId, [
              { type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' }] },
              { type: 'turn_ended', stopReason: 'end_turn' },
            ])
            resolve({ ok: true, value: { stopReason: 'end_turn' } })
            return
          }
          const chunk = words.slice(i, i + 3).join('')
          i += 3
          emitActions(sessionId, [{ type: 'updates', updates: [{ sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text: chunk } }] }])
          later(delay, step)
        }
        later(delay, step)
      })
    },
    cancel: ({ sessionId }: { sessionId: string }) => {
      for (const t of timers) clearTimeout(t)
      timers.clear()
      emitActions(sessionId, [
        { type: 'updates', updates: [{ sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' }] },
        { type: 'turn_ended', stopReason: 'cancelled' },
      ])
      return ok(undefined)
    },
    setMode: ({ sessionId, modeId }: { sessionId: string; modeId: string }) => {
      emitActions(sessionId, [{ type: 'updates', updates: [{ sessionUpdate: 'current_mode_update', currentModeId: modeId }] }])
      return ok(undefined)
    },
    setModel: ({ sessionId, modelId }: { sessionId: string; modelId: string }) => {
      emitActions(sessionId, [{ type: 'model_selected', modelId }])
      return ok(undefined)
    },
    setConfigOption: () => ok(undefined),
    closeSession: ({ sessionId }: { sessionId: string }) => {
      emit('sessionRemoved', { sessionId })
      return ok(undefined)
    },
    restartAgent: ({ agentId }: { agentId: string }) => {
      const agent = agents.get(agentId)
      if (!agent) return Promise.resolve({ ok: false as const, error: { kind: 'not-found', message: `No agent ${agentId}` } })
      setAgent({ ...agent, status: 'starting', error: null })
      later(600, () => setAgent({ ...agent, status: 'ready', error: null, pid: 5151 }))
      return ok(undefined)
    },
    respondPermission: ({ requestId, optionId }: { requestId: string; optionId: string | null }) => {
      const sessionId = [...seqs.keys()].find((id) => id === 'sess-claude-1')!
      const kind = optionId === null ? undefined : optionId.startsWith('allow') ? 'allow_once' : 'reject_once'
      emitActions(sessionId, [
        {
          type: 'permission_resolved',
          requestId,
          status: optionId === null ? 'cancelled' : 'answered',
          resolution: { by: optionId === null ? 'cancel' : 'person', at: Date.now(), ...(optionId ? { optionId } : {}), ...(kind ? { optionKind: kind } : {}) },
        },
      ])
      return ok(undefined)
    },
    setAutoApprove: ({ sessionId, value }: { sessionId: string; value: boolean }) => {
      emitActions(sessionId, [{ type: 'set_auto_approve', value }])
      return ok(undefined)
    },
    listAgentDefinitions: () => ok({ agents: [], warning: null }),
    listRequestScopedElicitations: () => ok([]),
    stopAgent: ({ agentId }: { agentId: string }) => {
      const agent = agents.get(agentId)
      if (agent) setAgent({ ...agent, status: 'stopped' })
      return ok(undefined)
    },
  }

  // Calls other domains add later answer "not available" instead of breaking the preview.
  const api = new Proxy(calls as Record<string, unknown>, {
    get(target, prop: string) {
      if (prop in target) return target[prop]
      if (/^on[A-Z]/.test(prop)) return on(prop[2]!.toLowerCase() + prop.slice(3))
      return () => Promise.resolve({ ok: false, error: { kind: 'not-available', message: `${prop} is not in the dev fake` } })
    },
  }) as unknown as BosunApi

  return { api, emitActions }
}

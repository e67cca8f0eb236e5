/**
 * The renderer-facing side of files: the agent's prompt capabilities, the `@` picker's listing, and the
 * gate every prompt passes before it reaches the agent ({@link preparePrompt}).
 */
import { fail, ok, type Result } from '../base/errors'
import type { CallHandlers } from '../../common/contract'
import type { ContentBlock } from '../../common/session/types'
import { listFiles } from './file-list'
import { checkPromptText, preparePrompt, type PromptCapabilities } from './prompt-content'

export interface ClientCapsDeps {
  /** The session's agent, folder and roots; undefined for an unknown session. */
  session(sessionId: string): { agentId: string; cwd: string; roots: string[] } | undefined
  /** The agent's prompt capabilities from its handshake (starting it if needed). */
  promptCapabilities(agentId: string): Promise<Result<PromptCapabilities>>
  agentName(agentId: string): string
}

export type ClientCapsCallHandlers = Pick<CallHandlers, 'promptCapabilities' | 'listSessionFiles'>

export interface ClientCapsService {
  handlers: ClientCapsCallHandlers
  /** The prompt as the agent may receive it, or why it cannot be sent. Text-only prompts pass untouched. */
  preparePrompt(sessionId: string, blocks: ContentBlock[]): Promise<Result<ContentBlock[]>>
}

export function createClientCapsService(deps: ClientCapsDeps): ClientCapsService {
  const unknownSession = (sessionId: string) => fail({ kind: 'not-found', message: `No session ${sessionId}.` })
  return {
    handlers: {
      promptCapabilities: async ({ sessionId }) => {
        const session = deps.session(sessionId)
        if (!session) return unknownSession(sessionId)
        const caps = await deps.promptCapabilities(session.agentId)
        return ok(caps.ok ? { ...caps.value, known: true } : { image: false, audio: false, embeddedContext: false, known: false })
      },
      listSessionFiles: async ({ sessionId }) => {
        const session = deps.session(sessionId)
        if (!session) return unknownSession(sessionId)
        const listing = await listFiles(session.cwd)
        return ok({ root: session.cwd, ...listing })
      },
    },
    async preparePrompt(sessionId, blocks) {
      if (blocks.every((b) => b.type === 'text')) {
        const text = checkPromptText(blocks)
        return text.ok ? ok(blocks) : text
      }
      const session = deps.session(sessionId)
      if (!session) return unknownSession(sessionId)
      const caps = await deps.promptCapabilities(session.agentId)
      if (!caps.ok) return caps
      return preparePrompt(blocks, caps.value, session.roots, deps.agentName(session.agentId))
    },
  }
}

/**
 * Agent tools: check connection, login/logout, stderr log and protocol inspector (issue 6).
 * Work in progress: the handlers are placeholders until the implementation lands.
 */
import { fail } from '../base/errors'
import type { CallHandlers } from '../../preload/contract'
import type { agentToolsCalls } from '../../preload/contract/agent-tools'

export type AgentToolsHandlers = Pick<CallHandlers, keyof typeof agentToolsCalls>

const notYet = async () => fail({ kind: 'internal', message: 'Not implemented yet.' })

export function createAgentToolsService(): { handlers: AgentToolsHandlers; dispose(): void } {
  return {
    handlers: {
      checkAgentConnection: notYet,
      listAuthMethods: notYet,
      loginAgent: notYet,
      startAuthTerminal: notYet,
      authTerminalInput: notYet,
      closeAuthTerminal: notYet,
      logoutAgent: notYet,
      getAgentLog: notYet,
      listInspectorMessages: notYet,
      exportInspector: notYet,
      clearInspector: notYet,
    },
    dispose() {},
  }
}

/**
 * The ACP agents Bosun knows by their command: what first run looks for on PATH (`main/agents/detect.ts`), and what the
 * agent form suggests when a command is not found (a typo, or the name an agent had before: `validate.ts`).
 */
export interface KnownAgent {
  key: string
  name: string
  command: string
  args: string[]
  /** The preset with its key variable and description. */
  presetId: string
}

/** The agents Bosun looks for, with the arguments that put each in ACP mode. All speak ACP v1. */
export const KNOWN_AGENTS: readonly KnownAgent[] = [
  { key: 'claude', name: 'Claude', command: 'claude-agent-acp', args: [], presetId: 'claude' },
  { key: 'codex', name: 'Codex', command: 'codex-acp', args: [], presetId: 'codex' },
  { key: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], presetId: 'gemini' },
  { key: 'goose', name: 'goose', command: 'goose', args: ['acp'], presetId: 'goose' },
  { key: 'opencode', name: 'OpenCode', command: 'opencode', args: ['acp'], presetId: 'opencode' },
  { key: 'qwen', name: 'Qwen Code', command: 'qwen', args: ['--acp'], presetId: 'qwen' },
  { key: 'kilo', name: 'Kilo Code', command: 'kilo', args: ['acp'], presetId: 'kilo' },
  { key: 'copilot', name: 'GitHub Copilot', command: 'copilot', args: ['--acp'], presetId: 'copilot' },
]

/** Commands agents were published under before, and what they are called now. */
export const RENAMED_AGENT_COMMANDS: Readonly<Record<string, string>> = {
  // @zed-industries/claude-code-acp became @agentclientprotocol/claude-agent-acp.
  'claude-code-acp': 'claude-agent-acp',
}

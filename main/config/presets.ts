/**
 * Presets for agents people commonly run. A preset only fills the add-agent form; nothing refers back to
 * it after saving except `presetId` (for an icon or help link). Commands are the ACP entry points the
 * projects document; keys are the environment variables each agent reads.
 */
export interface AgentPreset {
  id: string
  name: string
  description: string
  command: string
  args: string[]
  /** Plain environment values the form starts with. */
  env: Record<string, string>
  /** Secret names the form offers (values go to the keychain). */
  secretEnv: string[]
  docsUrl?: string
  /** The ACP version to offer first (all the known agents speak v1: no second start). */
  protocolVersion?: 1 | 2
  /** What it needs before it works, told before it is added: a runtime, a login, a key. */
  needs: PresetNeed[]
}

export interface PresetNeed {
  kind: 'runtime' | 'install' | 'login' | 'key'
  /** One short sentence; `code spans` in backticks. */
  text: string
}

const NODE: PresetNeed = { kind: 'runtime', text: 'Node.js 18 or newer (`npx` downloads the adapter on first start)' }

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    id: 'claude',
    name: 'Claude',
    description: "Anthropic's Claude Code through the ACP adapter (runs with npx). Leave the key unset to sign in with a Claude account.",
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp'],
    env: {},
    secretEnv: ['ANTHROPIC_API_KEY'],
    docsUrl: 'https://github.com/agentclientprotocol/claude-agent-acp',
    protocolVersion: 1,
    needs: [NODE, { kind: 'login', text: 'A Claude subscription to sign in with, or an `ANTHROPIC_API_KEY`' }],
  },
  {
    id: 'codex',
    name: 'Codex',
    description: "OpenAI's Codex through the ACP adapter (runs with npx). Leave the key unset to sign in with a ChatGPT account.",
    command: 'npx',
    args: ['-y', '@agentclientprotocol/codex-acp'],
    env: {},
    secretEnv: ['OPENAI_API_KEY'],
    docsUrl: 'https://github.com/agentclientprotocol/codex-acp',
    protocolVersion: 1,
    needs: [NODE, { kind: 'login', text: 'A ChatGPT account to sign in with, or an `OPENAI_API_KEY`' }],
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    description: "Google's Gemini CLI in ACP mode. Needs `gemini` installed; leave the key unset to sign in with a Google account.",
    command: 'gemini',
    args: ['--acp'],
    env: {},
    secretEnv: ['GEMINI_API_KEY'],
    docsUrl: 'https://github.com/google-gemini/gemini-cli',
    protocolVersion: 1,
    needs: [{ kind: 'install', text: '`gemini` on PATH (`npm install -g @google/gemini-cli`)' }, { kind: 'login', text: 'A Google account to sign in with, or a `GEMINI_API_KEY`' }],
  },
  {
    // goose reads GOOSE_PROVIDER / GOOSE_MODEL and the provider's own key from the environment in preference
    // to ~/.config/goose/config.yaml (https://block.github.io/goose/docs/guides/environment-variables).
    id: 'goose',
    name: 'goose',
    description: 'Block’s goose in ACP mode. Set the provider and its key here, or leave both empty to use `goose configure`.',
    command: 'goose',
    args: ['acp'],
    env: { GOOSE_PROVIDER: 'anthropic' },
    secretEnv: ['ANTHROPIC_API_KEY'],
    docsUrl: 'https://block.github.io/goose/docs/guides/acp-clients',
    protocolVersion: 1,
    needs: [{ kind: 'install', text: '`goose` on PATH (block.github.io/goose)' }, { kind: 'key', text: 'A provider and its key here, or `goose configure` done once' }],
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    // OpenCode reads each provider's own key from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, …) besides
    // what `opencode auth login` stored (https://opencode.ai/docs/providers/).
    description: 'OpenCode in ACP mode. Leave the key unset to use the providers set up with `opencode auth login`, or use another provider’s key variable.',
    command: 'opencode',
    args: ['acp'],
    env: {},
    secretEnv: ['ANTHROPIC_API_KEY'],
    docsUrl: 'https://opencode.ai/docs/acp/',
    protocolVersion: 1,
    needs: [{ kind: 'install', text: '`opencode` on PATH (opencode.ai)' }, { kind: 'login', text: 'A provider set up with `opencode auth login`, or its key' }],
  },
  {
    id: 'qwen',
    name: 'Qwen Code',
    // Qwen Code's one ACP login reads OPENAI_API_KEY; OPENAI_BASE_URL and OPENAI_MODEL pick another OpenAI-compatible provider.
    description: 'Qwen Code in ACP mode, with any OpenAI-compatible provider: the key below, and `OPENAI_BASE_URL` and `OPENAI_MODEL` for a provider other than OpenAI.',
    command: 'qwen',
    args: ['--acp'],
    env: {},
    secretEnv: ['OPENAI_API_KEY'],
    docsUrl: 'https://github.com/QwenLM/qwen-code',
    protocolVersion: 1,
    needs: [{ kind: 'install', text: '`qwen` on PATH (`npm install -g @qwen-code/qwen-code`)' }, { kind: 'key', text: 'An `OPENAI_API_KEY`, with `OPENAI_BASE_URL` and `OPENAI_MODEL` for another provider' }],
  },
  {
    id: 'kilo',
    name: 'Kilo Code',
    // Kilo Code (an OpenCode fork) reads its gateway key from KILO_API_KEY besides what `kilo auth login` stored.
    description: 'Kilo Code in ACP mode. Leave the key unset to use the providers set up with `kilo auth login`, or set a Kilo Gateway key.',
    command: 'kilo',
    args: ['acp'],
    env: {},
    secretEnv: ['KILO_API_KEY'],
    docsUrl: 'https://github.com/Kilo-Org/kilocode',
    protocolVersion: 1,
    needs: [{ kind: 'install', text: '`kilo` on PATH (`npm install -g @kilocode/cli`)' }, { kind: 'login', text: 'A provider set up with `kilo auth login`, or a `KILO_API_KEY`' }],
  },
  {
    id: 'copilot',
    name: 'GitHub Copilot',
    // Copilot CLI's ACP login is `copilot login` in a terminal; COPILOT_GITHUB_TOKEN takes precedence over it.
    description: 'GitHub Copilot CLI in ACP mode. Leave the token unset to sign in with `copilot login`, which Bosun opens in a terminal.',
    command: 'copilot',
    args: ['--acp'],
    env: {},
    secretEnv: ['COPILOT_GITHUB_TOKEN'],
    docsUrl: 'https://github.com/github/copilot-cli',
    protocolVersion: 1,
    needs: [{ kind: 'install', text: '`copilot` on PATH (`npm install -g @github/copilot`)' }, { kind: 'login', text: 'A Copilot subscription: `copilot login`, or a `COPILOT_GITHUB_TOKEN`' }],
  },
  {
    id: 'custom',
    name: 'Custom',
    description: 'Any program that speaks the Agent Client Protocol on stdin/stdout.',
    command: '',
    args: [],
    env: {},
    secretEnv: [],
    needs: [{ kind: 'install', text: 'A program that speaks ACP on stdio' }],
  },
]

export function findPreset(id: string): AgentPreset | undefined {
  return AGENT_PRESETS.find((p) => p.id === id)
}

/**
 * Canned state for the dev preview: every entry kind, v1 and v2 diffs, plans, a pending permission, a
 * terminal with escape sequences, and a crashed agent with its stderr tail. Built as snapshots are.
 */
import { createSessionState } from '../../common/session/reducer'
import type { AgentRuntimeView, Entry, PermissionRequestView, SessionState, ToolCallEntry } from '../../common/session/types'

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0)

export const agents: AgentRuntimeView[] = [
  { agentId: 'claude', name: 'Claude Code', status: 'ready', pid: 4242, protocolVersion: 1, agentInfo: { name: 'claude-code-acp', version: '0.9.1' } },
  { agentId: 'gemini', name: 'Gemini CLI', status: 'ready', pid: 4317, protocolVersion: 2 },
  {
    agentId: 'codex',
    name: 'Codex',
    status: 'crashed',
    pid: null,
    protocolVersion: 1,
    crashCount: 3,
    error: {
      kind: 'agent-exited',
      message: 'The agent exited with code 101 during initialize.',
      stderrTail: [
        'thread \'main\' panicked at codex-rs/acp/src/lib.rs:212:14:',
        'called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }',
        'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
        '\u001b[31merror\u001b[0m: could not read config at /home/ada/.codex/config.toml',
        'stack backtrace:',
        '   0: rust_begin_unwind',
        '   1: core::panicking::panic_fmt',
        '   2: core::result::unwrap_failed',
        '   3: codex_acp::main',
      ].join('\n'),
    },
  },
]

const text = (t: string) => ({ type: 'text' as const, text: t })
let n = 0
const id = (prefix: string) => `${prefix}-${++n}`

function user(t: string): Entry {
  return { kind: 'user_message', id: id('u'), content: [text(t)], local: true }
}
function agent(t: string): Entry {
  return { kind: 'agent_message', id: id('a'), content: [text(t)] }
}
function thought(t: string): Entry {
  return { kind: 'agent_thought', id: id('th'), content: [text(t)] }
}
function tool(p: Partial<ToolCallEntry> & { toolCallId: string }): ToolCallEntry {
  return {
    kind: 'tool_call',
    id: `tool:${p.toolCallId}`,
    title: null,
    toolKind: 'other',
    status: 'completed',
    content: [],
    locations: [],
    permissionIds: [],
    elicitationIds: [],
    ...p,
  }
}

/** A 24×8 PNG (three coloured bars), inline: the only kind of image Bosun shows. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAICAIAAABsw6g0AAAAHUlEQVR4nGPQz3+NFUmtDsCKzivpYUUMowaNZIMAXyXvQULajMwAAAAASUVORK5CYII='

const MARKDOWN = `Here is the plan for the **auth middleware** refactor. I looked at \`src/auth/middleware.ts\` and the session store:

1. Extract token parsing into \`parseBearer()\`
2. Replace the callback chain with \`async\`/\`await\`
3. Add tests for expired tokens

\`\`\`ts
export async function authenticate(req: Request): Promise<User | null> {
  const token = parseBearer(req.headers.get('authorization'))
  if (!token) return null // anonymous
  return sessions.lookup(token)
}
\`\`\`

See the [RFC 6750 spec](https://www.rfc-editor.org/rfc/rfc6750) for bearer tokens. This [harmless looking link](javascript:alert(1)) is not a link, <b>raw HTML</b> is shown as text, and this image is never loaded: ![build status](https://ci.example.com/badge.svg)

| File | Change |
| --- | --- |
| \`middleware.ts\` | rewritten |
| \`tokens.ts\` | new |

> Note: the old \`verify()\` helper is still used by the admin routes.`

const OLD = `import { verify } from './tokens'

export function authenticate(req, res, next) {
  const header = req.headers['authorization']
  if (!header) return next()
  verify(header.slice(7), (err, user) => {
    if (err) return res.status(401).end()
    req.user = user
    next()
  })
}
`
const NEW = `import { parseBearer, verifyToken } from './tokens'

export async function authenticate(req: Request): Promise<User | null> {
  const token = parseBearer(req.headers.get('authorization'))
  if (!token) return null
  try {
    return await verifyToken(token)
  } catch {
    return null
  }
}
`

const PATCH = `diff --git a/src/auth/tokens.ts b/src/auth/tokens.ts
index 3b18e51..a9c2f03 100644
--- a/src/auth/tokens.ts
+++ b/src/auth/tokens.ts
@@ -1,6 +1,10 @@
 import jwt from 'jsonwebtoken'
 
-export function verify(token, cb) {
-  jwt.verify(token, process.env.SECRET, cb)
+export function parseBearer(header: string | null): string | null {
+  const match = /^Bearer (.+)$/.exec(header ?? '')
+  return match ? match[1] : null
+}
+
+export async function verifyToken(token: string): Promise<User> {
+  return jwt.verify(token, secret()) as User
 }
diff --git a/src/auth/index.ts b/src/auth/index.ts
index 11aa2b3..77c01d9 100644
--- a/src/auth/index.ts
+++ b/src/auth/index.ts
@@ -3,3 +3,3 @@ import { authenticate } from './middleware'
 export { authenticate }
-export { verify } from './tokens'
+export { verifyToken } from './tokens'
 export type { User } from './types'
`

function permission(sessionId: string, agentId: string, agentName: string, requestId: string, toolCallId: string, title: string): PermissionRequestView {
  return {
    requestId,
    agentId,
    agentName,
    sessionId,
    title,
    subject: { type: 'tool_call', toolCallId },
    toolCallId,
    options: [
      { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
    createdAt: T0 + 60_000,
    status: 'pending',
  }
}

/** Many ordinary turns before the interesting part, so the transcript is long (virtualization). */
function filler(count: number): Entry[] {
  const out: Entry[] = []
  for (let i = 0; i < count; i++) {
    out.push(user(`Question ${i + 1}: what does \`step${i}\` do?`))
    out.push(agent(`\`step${i}\` ${i % 3 === 0 ? 'reads the configuration and **validates** it.' : i % 3 === 1 ? 'formats the output:\n\n- one\n- two\n- three' : 'is a no-op kept for compatibility.'}`))
  }
  return out
}

function claudeSession(): SessionState {
  const s = createSessionState({ sessionId: 'sess-claude-1', agentId: 'claude', protocolVersion: 1, cwd: '/home/ada/src/webshop' })
  const perm = permission(s.sessionId, 'claude', 'Claude Code', 'perm-1', 'tc-rm', 'Delete build artifacts')
  const entries: Entry[] = [
    ...filler(150),
    {
      kind: 'user_message',
      id: id('u'),
      local: true,
      content: [
        text('Refactor the auth middleware to async/await and add tests for expired tokens.'),
        { type: 'resource_link', uri: 'file:///home/ada/src/webshop/src/auth/middleware.ts', name: 'middleware.ts' },
      ],
    },
    thought('The user wants async middleware. First read the current implementation and the tests.\nThen check which routes use `verify()`.'),
    tool({ toolCallId: 'tc-read', title: 'Read src/auth/middleware.ts', toolKind: 'read', locations: [{ path: '/home/ada/src/webshop/src/auth/middleware.ts', line: 1 }] }),
    tool({
      toolCallId: 'tc-grep',
      title: 'grep -rn "verify(" src',
      toolKind: 'search',
      content: [{ type: 'content', content: text('3 matches in 2 files') }],
      rawInput: { pattern: 'verify(', path: 'src', glob: '*.ts' },
    }),
    agent(MARKDOWN),
    { kind: 'agent_message', id: id('a'), content: [text('The current request flow (rendered from inline image data):'), { type: 'image', mimeType: 'image/png', data: PNG }] },
    tool({
      toolCallId: 'tc-edit',
      title: 'Edit src/auth/middleware.ts',
      toolKind: 'edit',
      content: [{ type: 'diff', path: '/home/ada/src/webshop/src/auth/middleware.ts', oldText: OLD, newText: NEW }],
      locations: [{ path: '/home/ada/src/webshop/src/auth/middleware.ts', line: 3 }],
      decidedBy: { kind: 'rule', label: '“Edit files in webshop”', optionKind: 'allow_always' },
    }),
    tool({
      toolCallId: 'tc-test',
      title: 'npm test -- auth',
      toolKind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 'term-1' }],
      rawInput: { command: 'npm', args: ['test', '--', 'auth'] },
    }),
    tool({
      toolCallId: 'tc-rm',
      title: 'rm -rf dist .cache',
      toolKind: 'delete',
      status: 'pending',
      permissionIds: ['perm-1'],
      rawInput: { command: 'rm -rf dist .cache' },
    }),
    tool({ toolCallId: 'tc-weird', title: 'Mystery tool', toolKind: 'teleport', status: 'frobnicating', content: [{ type: 'hologram', frames: 3 } as never] }),
    tool({ toolCallId: 'tc-fail', title: 'Fetch https://registry.npmjs.org/jsonwebtoken', toolKind: 'fetch', status: 'failed', rawOutput: { error: 'ETIMEDOUT', retries: 2 } }),
    { kind: 'unknown', id: id('unk'), sessionUpdate: 'usage_forecast', raw: { sessionUpdate: 'usage_forecast', tokens: 1200 } },
  ]
  return {
    ...s,
    title: 'Refactor auth middleware',
    entries,
    plans: [
      {
        planId: '',
        type: 'items',
        entries: [
          { content: 'Extract token parsing into parseBearer()', priority: 'high', status: 'completed' },
          { content: 'Rewrite the middleware with async/await', priority: 'high', status: 'in_progress' },
          { content: 'Add tests for expired tokens', priority: 'medium', status: 'pending' },
          { content: 'Update the admin routes', priority: 'low', status: 'pending' },
        ],
      },
    ],
    availableCommands: [
      { name: 'review', description: 'Review the current changes', raw: {} },
      { name: 'test', description: 'Run the test suite', hint: 'pattern', raw: {} },
      { name: 'compact', description: 'Summarise the conversation to save context', raw: {} },
      { name: 'init', description: 'Create an AGENTS.md for this project', raw: {} },
    ],
    modes: {
      currentModeId: 'default',
      availableModes: [
        { id: 'default', name: 'Ask before edits' },
        { id: 'acceptEdits', name: 'Accept edits' },
        { id: 'plan', name: 'Plan only' },
      ],
    },
    configOptions: [
      {
        id: 'model',
        name: 'Model',
        type: 'select',
        currentValue: 'sonnet',
        options: [
          { value: 'sonnet', name: 'Sonnet 4.5', group: 'Fast' },
          { value: 'haiku', name: 'Haiku 4.5', group: 'Fast' },
          { value: 'opus', name: 'Opus 4.1', group: 'Deep' },
        ],
        raw: {},
      },
      { id: 'thinking', name: 'Thinking', type: 'boolean', currentValue: true, options: [], raw: {} },
      { id: 'future', name: 'Hidden future option', type: 'slider', currentValue: 3, options: [], raw: {} },
    ],
    terminals: {
      'term-1': {
        terminalId: 'term-1',
        command: 'npm test -- auth',
        cwd: '/home/ada/src/webshop',
        output:
          '\u001b[1m> webshop@1.4.0 test\u001b[22m\n> vitest run auth\n\n \u001b[32m✓\u001b[39m src/auth/tokens.test.ts (4 tests) 12ms\n \u001b[31m✗\u001b[39m src/auth/middleware.test.ts > rejects expired tokens\n   \u001b]0;pwned title\u0007AssertionError: expected null to be undefined\r\n\u001b[2K\u001b[1A Tests  1 failed | 4 passed (5)\n',
        exitStatus: null,
      },
    },
    permissions: { 'perm-1': perm },
    turn: { state: 'requires_action', stopReason: null, error: null, background: null, completedTurns: 151 },
    notices: [{ id: 'n1', severity: 'info', title: 'Context is 82% full', description: 'Use /compact to summarise older turns.' }],
    seq: 1,
  }
}

function geminiSession(): SessionState {
  const s = createSessionState({ sessionId: 'sess-gemini-1', agentId: 'gemini', protocolVersion: 2, cwd: '/home/ada/src/tokens-lib' })
  return {
    ...s,
    title: 'Rename verify() to verifyToken()',
    entries: [
      user('Rename verify() to verifyToken() everywhere and show me the patch.'),
      agent('Done. Two files changed; the patch is below. I also regenerated the logo, which is a binary file.'),
      tool({
        toolCallId: 'g-edit',
        title: 'Apply patch',
        toolKind: 'edit',
        content: [
          {
            type: 'diff',
            changes: [
              { operation: 'modify', path: '/home/ada/src/tokens-lib/src/auth/tokens.ts' },
              { operation: 'modify', path: '/home/ada/src/tokens-lib/src/auth/index.ts' },
            ],
            patch: { format: 'git_patch', text: PATCH },
          } as never,
        ],
        decidedBy: { kind: 'auto-approve', label: '' },
      }),
      tool({
        toolCallId: 'g-assets',
        title: 'Update assets',
        toolKind: 'move',
        content: [
          {
            type: 'diff',
            changes: [
              { operation: 'modify', path: '/home/ada/src/tokens-lib/assets/logo.png', fileType: 'binary', mimeType: 'image/png' },
              { operation: 'move', oldPath: '/home/ada/src/tokens-lib/docs/old.md', path: '/home/ada/src/tokens-lib/docs/auth.md' },
              { operation: 'delete', path: '/home/ada/src/tokens-lib/legacy/verify.js' },
            ],
          } as never,
        ],
      }),
      { kind: 'compaction', id: id('c'), compactionId: 'c1', status: 'completed', summary: [text('Earlier: renamed the helper and regenerated assets.')] },
      tool({
        toolCallId: 'g-build',
        title: 'npm run build',
        toolKind: 'execute',
        content: [{ type: 'terminal', terminalId: 'gt-1' }],
        status: 'completed',
      }),
    ],
    plans: [
      { planId: 'rename', type: 'items', entries: [
        { content: 'Rename the function', priority: 'high', status: 'completed' },
        { content: 'Update imports', priority: 'medium', status: 'completed' },
      ] },
      { planId: 'release', type: 'items', entries: [{ content: 'Bump minor version', priority: 'low', status: 'pending' }] },
    ],
    terminals: {
      'gt-1': { terminalId: 'gt-1', command: 'npm run build', output: 'tsc -p .\nBuilt in 2.1s\n', exitStatus: { exitCode: 0 } },
    },
    turn: { state: 'idle', stopReason: 'end_turn', error: null, background: null, completedTurns: 1 },
    seq: 1,
  }
}

function codexSession(): SessionState {
  const s = createSessionState({ sessionId: 'sess-codex-1', agentId: 'codex', protocolVersion: 1, cwd: '/home/ada/src/infra' })
  return {
    ...s,
    title: 'Terraform plan review',
    entries: [user('Review the terraform plan in ./plan.out'), agent('Reading the plan…')],
    turn: { state: 'idle', stopReason: null, error: { message: 'The agent exited while the turn was running (code 101).' }, background: null, completedTurns: 0 },
    seq: 1,
  }
}

/** A session with 10,000 entries, for scrolling performance. */
function hugeSession(): SessionState {
  const s = createSessionState({ sessionId: 'sess-claude-huge', agentId: 'claude', protocolVersion: 1, cwd: '/home/ada/src/monorepo' })
  return { ...s, title: '10,000 entries', entries: filler(5000), seq: 1 }
}

export function createFixtures(): { agents: AgentRuntimeView[]; sessions: SessionState[] } {
  return { agents, sessions: [claudeSession(), geminiSession(), codexSession(), hugeSession()] }
}

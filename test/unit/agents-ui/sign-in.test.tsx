/**
 * The sign-in step of a new session that needs auth (issue 6 item 5): the Sign in panel without "Sign out",
 * and the dialog's frame. The flow itself (retry after login) runs end to end in test/e2e/agents.test.ts.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { BosunApi } from '../../../common/contract'
import { LoginView, loginButtonName } from '../../../renderer/components/agents/LoginPanel'
import { keysOffered } from '../../../renderer/components/agents/MissingKeys'
import { SignInDialog } from '../../../renderer/components/agents/SignInDialog'
import { NotSentContext, NotSentNote } from '../../../renderer/components/transcript/not-sent'
import { newSessionFailure } from '../../../renderer/components/sidebar/new-session-failure'

const noop = () => undefined
const methods = [
  { id: 'login', name: 'Log in', type: 'agent' },
  { id: 'key', name: 'API key', type: 'env_var', envName: 'ACME_KEY' },
]
/** A Sign in view of the agent "Acme" with `methods`, nothing running and nothing done yet. */
const props = { agentName: 'Acme', methods, keychainAvailable: true, busy: null, outcomes: {}, onLogin: noop, onOpenTerminal: noop, onLogout: noop }

describe('sign in to start a session', () => {
  it('the Sign in panel can leave out "Sign out" (it offers it by default, for an agent known to support it)', () => {
    expect(renderToStaticMarkup(<LoginView {...props} logoutSupported />)).toContain('aria-label="Sign out"')
    const without = renderToStaticMarkup(<LoginView {...props} logoutSupported showLogout={false} />)
    expect(without).not.toContain('Sign out')
    expect(without).toContain('aria-label="Sign in"')
    expect(without).toContain('ACME_KEY')
  })

  it('an agent-driven login that failed naming key variables offers a key form for them; a plain failure does not', () => {
    const named = renderToStaticMarkup(
      <LoginView {...props} outcomes={{ login: { tone: 'error', text: 'ACME_API_KEY is not set', keyNames: ['OTHER_TOKEN', 'ACME_API_KEY'] } }} />,
    )
    expect(named).toContain('aria-label="Log in: a key for Acme"')
    expect(named).toContain('Acme reads its key from OTHER_TOKEN or ACME_API_KEY.')
    expect(named).toContain('<option value="ACME_API_KEY">ACME_API_KEY</option>')
    expect(named).toContain('Save key and sign in')
    const plain = renderToStaticMarkup(<LoginView {...props} outcomes={{ login: { tone: 'error', text: 'Login failed' } }} />)
    expect(plain).not.toContain('a key for Acme')
    expect(plain).toContain('Login failed')
  })

  it('a method description’s `code spans` show as code (OpenCode: "Run `opencode auth login` in the terminal"), nothing else as markup', () => {
    const html = renderToStaticMarkup(
      <LoginView
        {...props}
        agentName="OpenCode"
        methods={[{ id: 'opencode-login', name: 'Login with opencode', type: 'agent', description: 'Run `opencode auth login` in the terminal <b>now</b>' }]}
      />,
    )
    expect(html).toContain('Run <code class="code-span">opencode auth login</code> in the terminal &lt;b&gt;now&lt;/b&gt;')
  })

  it('a method Bosun cannot run is listed with its name and description, as not usable here, with no button to press', () => {
    const html = renderToStaticMarkup(
      <LoginView {...props} methods={[...methods, { id: 'sso', name: 'Company SSO', type: 'oauth-device', description: 'Sign in with your company account', unsupported: true as const }]} />,
    )
    const sso = html.slice(html.indexOf('Company SSO'))
    expect(sso).toContain('Sign in with your company account')
    expect(sso).toContain('Not usable in Bosun')
    expect(sso).toContain('Bosun cannot sign in this way (a method of type <code class="mono">oauth-device</code>)')
    expect(sso).not.toContain('<button')
    expect(html).not.toContain('Sign in with Company SSO')
    // The methods it can run still offer theirs.
    expect(html).toContain('aria-label="Sign in"')
  })

  it('a sign-in button is named "Sign in with <method>", or by the method alone when its name already says it, in Bosun’s words (never "Sign in with Log in with…")', () => {
    expect(loginButtonName('Google')).toBe('Sign in with Google')
    expect(loginButtonName('Log in with Copilot CLI')).toBe('Sign in with Copilot CLI')
    expect(loginButtonName('Login with opencode')).toBe('Sign in with opencode')
    expect(loginButtonName('Sign-in via SSO')).toBe('Sign in via SSO')
    expect(loginButtonName('Login')).toBe('Sign in')
    expect(loginButtonName('Logistics account')).toBe('Sign in with Logistics account')
    const html = renderToStaticMarkup(<LoginView {...props} methods={[{ id: 'copilot-login', name: 'Log in with Copilot CLI', type: 'agent' }]} />)
    expect(html).toContain('aria-label="Sign in with Copilot CLI"')
    // The agent's own name for the method is its card's title, as the agent sends it.
    expect(html).toContain('>Log in with Copilot CLI</h3>')
    expect(html).not.toContain('with Log in')
  })

  it('the dialog names the agent, quotes its refusal, and offers Try again and Cancel', () => {
    const html = renderToStaticMarkup(
      <SignInDialog api={{} as BosunApi} agentId="acme" agentName="Acme" reason="Authentication required" retry={async () => null} onDone={noop} onCancel={noop} />,
    )
    expect(html).toMatch(/<dialog[^>]*class="sign-in-dialog"/)
    expect(html).toContain('Sign in to Acme')
    expect(html).toContain('<q>Authentication required</q>')
    expect(html).toContain('>Try again</button>')
    expect(html).toContain('>Cancel</button>')
    // Before the methods are listed, the panel says it is asking.
    expect(html).toContain('Asking Acme how it signs in')
  })
})

describe('a method that takes its key in the login (Gemini CLI’s "Gemini API key")', () => {
  const gemini = [
    { id: 'oauth-personal', name: 'Log in with Google', type: 'agent' },
    { id: 'gemini-api-key', name: 'Gemini API key', type: 'agent', takesKey: true as const },
  ]

  it('has an empty password field and "Sign in" instead of a bare button, and says the key is not stored', () => {
    const html = renderToStaticMarkup(<LoginView {...props} agentName="Gemini" methods={gemini} />)
    expect(html).toContain('aria-label="Gemini API key: the key"')
    expect(html).not.toContain('aria-label="Sign in with Gemini API key"')
    expect(html).toContain('aria-label="Sign in with Google"')
    const passwords = [...html.matchAll(/<input[^>]*type="password"[^>]*>/g)].map((m) => m[0])
    expect(passwords).toHaveLength(1)
    expect(passwords[0]).not.toMatch(/value="[^"]/)
    expect(html).toContain('not stored')
  })

  it('works without a keychain (nothing is stored)', () => {
    const html = renderToStaticMarkup(<LoginView {...props} agentName="Gemini" methods={gemini} keychainAvailable={false} />)
    expect(html).not.toMatch(/<input[^>]*type="password"[^>]*disabled=""/)
    expect(html).not.toContain('will not store the key in plain text')
  })
})

describe('signing in for a message the agent refused', () => {
  it('the dialog says to send the message again and has no Try again (Close instead of Cancel)', () => {
    const html = renderToStaticMarkup(<SignInDialog api={{} as BosunApi} agentId="acme" agentName="Acme" reason="Authentication required" onDone={noop} onCancel={noop} />)
    expect(html).toContain('before it takes your message')
    expect(html).not.toContain('>Try again</button>')
    expect(html).toContain('>Close</button>')
  })

  const entry = (code: number | undefined, signIn?: boolean) =>
    ({
      kind: 'user_message',
      id: 'u1',
      content: [{ type: 'text', text: 'hello' }],
      notSent: { message: 'Authentication required', ...(code !== undefined ? { code } : {}), ...(signIn !== undefined ? { signIn } : {}) },
    }) as never
  const actions = { onEdit: noop, onResend: noop, onSignIn: noop }
  const render = (code: number | undefined, value: typeof actions | Omit<typeof actions, 'onSignIn'>, signIn?: boolean) =>
    renderToStaticMarkup(
      <NotSentContext.Provider value={value}>
        <NotSentNote entry={entry(code, signIn)} />
      </NotSentContext.Provider>,
    )

  it('"Sign in…" is offered under a message refused with -32000 only, and only where the screen can open the dialog', () => {
    expect(render(-32000, actions, true)).toContain('>Sign in…</button>')
    // A transcript recorded before main said whether the agent can be signed in to: -32000 alone offers it, as it did.
    expect(render(-32000, actions)).toContain('>Sign in…</button>')
    expect(render(-32603, actions)).not.toContain('Sign in')
    expect(render(undefined, actions)).not.toContain('Sign in')
    expect(render(-32000, { onEdit: noop, onResend: noop }, true)).not.toContain('Sign in')
  })

  it('an agent that listed no auth methods (B10): no "Sign in…", the agent’s words and details, and why there is no sign-in', () => {
    const html = render(-32000, actions, false)
    expect(html).not.toContain('>Sign in…</button>')
    expect(html).toContain('Authentication required')
    expect(html).toContain('(error -32000)')
    expect(html).toContain('listed no way to sign in that Bosun can use, so Bosun has none to offer')
    expect(html).toContain('>Resend</button>')
  })
})

describe('a v1 message answered with an error only', () => {
  const note = (notSent: object) =>
    renderToStaticMarkup(<NotSentNote entry={{ kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'hello' }], notSent } as never} />)

  it('says it failed, not that it was not sent, when the agent may have taken it; a refusal still reads "Not sent"', () => {
    const failed = note({ message: 'Internal error', code: -32603, details: 'model overloaded', mayHaveTaken: true })
    expect(failed).toContain('aria-label="Failed"')
    expect(failed).toContain('<strong>Failed.</strong> The agent answered this message with an error: ')
    expect(failed).toContain('model overloaded')
    expect(failed).not.toContain('Not sent')
    const refused = note({ message: 'Prompt too long', code: -32602 })
    expect(refused).toContain('aria-label="Not sent"')
    expect(refused).toContain('<strong>Not sent.</strong> The agent refused this message: ')
  })
})

describe('a session that did not start (the new-session form’s words)', () => {
  it('a -32000 from an agent with no auth methods says there is nothing to sign in with, and quotes the agent with its details (B10)', () => {
    const failure = newSessionFailure('Acme', { kind: 'rpc-error', code: -32000, message: 'Authentication required', data: { details: 'Run `acme login`.' } })
    expect(failure.folder).toBeUndefined()
    expect(failure.message).toBe(
      'Acme asks for a sign-in but listed no way to sign in that Bosun can use, so Bosun has none to offer. ' +
        'Sign in the agent’s own way (often its command in a terminal), then try again. It said: Authentication required (Run `acme login`.)',
    )
  })

  it('any other failure is its message, and an added folder main refused is named for the form', () => {
    expect(newSessionFailure('Acme', { kind: 'invalid-argument', message: '/x does not exist.', data: { folder: '/x' } })).toEqual({ message: '/x does not exist.', folder: '/x' })
    // The agent's `data` in words after its message (it was dropped).
    expect(newSessionFailure('Acme', { kind: 'rpc-error', code: -32603, message: 'boom', data: 'trace' })).toEqual({ message: 'boom: trace', folder: undefined, agentAtFault: true })
  })

  it('the agent’s own failures (it did not start, hung, refused the session) offer its page on Agents; a folder that is not one does not', () => {
    for (const kind of ['agent-spawn-failed', 'agent-exited', 'timeout', 'initialize-failed', 'rpc-error']) {
      expect(newSessionFailure('Acme', { kind, message: 'x' }).agentAtFault).toBe(true)
    }
    expect(newSessionFailure('Acme', { kind: 'rpc-error', code: -32000, message: 'Authentication required' }).agentAtFault).toBe(true)
    expect(newSessionFailure('Acme', { kind: 'invalid-argument', message: '/x does not exist.' }).agentAtFault).toBeUndefined()
    expect(newSessionFailure('Acme', { kind: 'session-limit', message: 'Too many sessions.' }).agentAtFault).toBeUndefined()
  })
})

describe('keys offered in the sign-in', () => {
  const def = { secretEnv: ['ANTHROPIC_API_KEY', 'EXTRA_TOKEN'], secretsSet: { ANTHROPIC_API_KEY: true, EXTRA_TOKEN: false } }

  it('offers the keys with no value, and, when the agent refused, the ones set too, to replace a wrong key', () => {
    // claude-agent-acp 0.101 with a wrong ANTHROPIC_API_KEY: the sign-in offered its logins and gateways, not the key.
    expect(keysOffered(def, false)).toEqual({ missing: ['EXTRA_TOKEN'], replaced: [] })
    expect(keysOffered(def, true)).toEqual({ missing: ['EXTRA_TOKEN'], replaced: ['ANTHROPIC_API_KEY'] })
  })
})

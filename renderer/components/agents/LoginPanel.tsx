import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react'
import { keyNamesOf } from '../../../common/agent-keys'
import { ownValue } from '../../../common/own-keys'
import type { BosunApi } from '../../../common/contract'
import type { GatewayLogin } from '../../../common/contract/agent-tools'
import { agentTools, failureText, type AgentAccountView, type AuthMethodView } from '../../screens/agents/agent-tools-api'
import { AuthTerminal, exitText } from './AuthTerminal'
import { authTypeLabel, gatewayLabel } from './CheckConnection'
import { CodeText } from './CodeText'
import { GatewayForm } from './GatewayForm'
import { KeyForm } from './KeyForm'
import { MissingKeys } from './MissingKeys'
import { revealAsText } from '../permissions/reveal-text'

/** What happened to the last action on a method (or on logout), shown under it. */
export interface LoginOutcome {
  tone: 'ok' | 'error'
  text: string
  /** A failed agent-driven login that named the variables the agent reads its key from (`common/agent-keys.ts`). */
  keyNames?: readonly string[]
}

/** `A`, `A or B`, `A, B or C`. */
const orList = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`)

export interface LoginViewProps {
  agentName: string
  methods: readonly AuthMethodView[] | null
  keychainAvailable: boolean
  /** The method whose action is running. */
  busy: string | null
  /** By method id. */
  outcomes: Readonly<Record<string, LoginOutcome | undefined>>
  /** A logout is running (kept apart from `busy`: a method's id may be `logout`). */
  loggingOut?: boolean
  /** What the last logout did (apart from `outcomes`, for the same reason). */
  logoutOutcome?: LoginOutcome | undefined
  problem?: string | null
  /** `keyName`: the variable `value` goes under, for an agent-driven method whose failed login named it. */
  onLogin: (methodId: string, value?: string, keyName?: string) => void
  /** A method that takes a model gateway (`gateway`): log in through this one. */
  onGatewayLogin?: (methodId: string, gateway: GatewayLogin) => void
  onOpenTerminal: (methodId: string) => void
  onLogout: () => void
  /** Stops waiting for the login in progress (one the agent runs: a browser sign-in nobody finishes). */
  onCancelLogin?: () => void
  /** The open terminal (rendered under its method). */
  terminal?: { methodId: string; node: ReactNode } | null
  /**
   * From a connection check's "Sign out" capability. "Sign out" is offered only when it is `true`: undefined (no check
   * yet) is not known, and main refuses a logout the agent does not advertise.
   */
  logoutSupported?: boolean
  /** Runs a connection check, which tells whether the agent can log out (offered while that is not known). */
  onCheckConnection?: () => void
  /** That check is running. */
  checkingConnection?: boolean
  /** Offer "Sign out" at all (not when signing in to start a session). Default true. */
  showLogout?: boolean
  /** Who the agent says is signed in, when it has said (claude-agent-acp does). */
  account?: AgentAccountView | null
  /** Shown because the agent refused for want of a sign-in (the sign-in dialog), not opened by the person. */
  refused?: boolean
}

/** The agent's own account line: "Signed in as Claude Max · ada@example.com", or that it says no one is. */
export function AccountLine({ agentName, account, refused = false }: { agentName: string; account: AgentAccountView; refused?: boolean }) {
  return (
    <p className={`login-account ${account.signedIn ? 'login-account-in' : 'login-account-out'}`} role="status" aria-label={`${agentName} account`}>
      {account.signedIn ? (
        <>
          {agentName} says it is signed in with <strong>{account.label}</strong>
          {account.detail && <span className="muted"> · {account.detail}</span>}
          {/* codex-acp with a key its service turns down (401): "signed in with OpenAI API key", and "Authentication required". */}
          {refused && (
            <span className="login-account-refused">
              {' '}
              and still asked for a sign-in: what it is signed in with may be wrong or expired (a key its service turned down, say). Sign in again below.
            </span>
          )}
        </>
      ) : (
        <>
          {agentName} says no one is signed in<span className="muted"> ({account.label})</span>
        </>
      )}
    </p>
  )
}

/**
 * The Sign in tab: each of the agent's auth methods with the one action that fits its type. An env-var
 * value is read from an uncontrolled password field at submit and the field is emptied: it never sits in
 * React state or a DOM attribute.
 */
export function LoginView(props: LoginViewProps) {
  const { agentName, methods, keychainAvailable, busy, outcomes, problem, onLogin, onGatewayLogin, onOpenTerminal, onLogout, terminal, logoutSupported, showLogout = true, account } = props
  const { onCheckConnection, checkingConnection = false, onCancelLogin, loggingOut = false, logoutOutcome } = props
  const anyBusy = busy !== null || loggingOut
  if (methods === null) {
    return (
      <p className="muted" role="status">
        <span className="spinner small" aria-hidden="true" /> Asking {agentName} how it signs in…
      </p>
    )
  }
  /** What a method's key field shares, whichever way the key is used (stored as an env var, or sent in the login). */
  const keyFormOf = (m: AuthMethodView) => ({
    label: `${m.name}: the key`,
    keychainAvailable,
    disabled: anyBusy,
    busy: busy === m.id,
    onSubmit: (_name: string, value: string) => onLogin(m.id, value),
  })
  return (
    <div className="login">
      {account && <AccountLine agentName={agentName} account={account} refused={props.refused ?? false} />}
      {problem && (
        <p className="field-error agents-problem" role="alert">
          {problem}
        </p>
      )}
      {methods.length === 0 ? (
        <p className="muted">{agentName} lists no sign-in methods: it either needs none or reads its credentials itself.</p>
      ) : (
        <ul className="login-methods" aria-label="Sign-in methods">
          {methods.map((m) => {
            // The method's id is the agent's: `constructor` or `__proto__` must not find a member of Object.prototype.
            const outcome = ownValue(outcomes, m.id)
            return (
              <li key={m.id} className="agents-card login-method">
                <div className="login-method-head">
                  <h3 className="agents-card-title">{revealAsText(m.name)}</h3>
                  <span className="muted small">
                    {m.unsupported ? 'Not usable in Bosun' : m.gateway && onGatewayLogin ? gatewayLabel(m.gatewayProtocol) : authTypeLabel(m.type)}
                  </span>
                </div>
                {m.description && (
                  <p className="login-method-desc">
                    <CodeText text={m.description} />
                  </p>
                )}

                {m.unsupported ? (
                  <p className="muted small login-method-unsupported">
                    Bosun cannot sign in this way (a method of type <code className="mono">{m.type}</code>). Use another way listed here, or sign
                    in to {agentName} outside Bosun.
                  </p>
                ) : m.type === 'env_var' ? (
                  <KeyForm names={[m.envName ?? 'Value']} submitLabel="Save and restart" busyLabel="Saving…" {...keyFormOf(m)} />
                ) : m.type === 'terminal' ? (
                  terminal && terminal.methodId === m.id ? (
                    terminal.node
                  ) : (
                    <>
                      {m.commandLine && (
                        <p className="login-method-command muted small">
                          Runs <code className="mono">{m.commandLine}</code> in a terminal here, where you answer it.
                        </p>
                      )}
                      {m.envLeftOut && m.envLeftOut.length > 0 && (
                        <p className="login-method-command muted small login-method-env-left-out">
                          Bosun does not pass on{' '}
                          {m.envLeftOut.map((name, i) => (
                            <Fragment key={`${i}-${name}`}>
                              {i > 0 && ', '}
                              <code className="mono">{name}</code>
                            </Fragment>
                          ))}{' '}
                          from this sign-in: {m.envLeftOut.length === 1 ? 'a variable that' : 'variables that'} could make the program run other code or trust other
                          servers.
                        </p>
                      )}
                      <div className="button-row">
                        <button type="button" className="button button-primary" onClick={() => onOpenTerminal(m.id)} disabled={anyBusy || Boolean(terminal)}>
                          {busy === m.id ? 'Opening…' : 'Open terminal'}
                        </button>
                      </div>
                    </>
                  )
                ) : m.gateway && onGatewayLogin ? (
                  <GatewayForm
                    agentName={agentName}
                    label={`${m.name}: the gateway`}
                    protocol={m.gatewayProtocol}
                    disabled={anyBusy}
                    busy={busy === m.id}
                    onSubmit={(gateway) => onGatewayLogin(m.id, gateway)}
                  />
                ) : m.takesKey ? (
                  <KeyForm
                    names={['API key']}
                    submitLabel="Sign in"
                    busyLabel="Signing in…"
                    // Without a keychain the key cannot be kept for the environment: the note says so rather than promise it.
                    footnote={
                      keychainAvailable
                        ? `Given to ${agentName} with this sign-in, and not stored. If ${agentName} wants it in its environment instead, Bosun keeps it there, in the system keychain, for ${agentName} only.`
                        : `Given to ${agentName} with this sign-in, and not stored. (Without the system keychain Bosun cannot keep it for ${agentName}’s environment.)`
                    }
                    {...keyFormOf(m)}
                  />
                ) : (
                  <div className="button-row">
                    <button type="button" className="button button-primary" onClick={() => onLogin(m.id)} disabled={anyBusy} aria-label={loginButtonName(m.name)}>
                      {busy === m.id ? 'Signing in…' : 'Sign in'}
                    </button>
                  </div>
                )}

                {busy === m.id && onCancelLogin && m.type !== 'env_var' && m.type !== 'terminal' && (
                  <div className="login-waiting">
                    <p className="muted small">Waiting for {agentName} to finish the sign-in (a browser page it opened, say).</p>
                    <button type="button" className="button button-secondary button-small" onClick={onCancelLogin}>
                      Cancel sign-in
                    </button>
                  </div>
                )}
                {outcome && (
                  <p className={outcome.tone === 'ok' ? 'login-outcome-ok' : 'field-error'} role={outcome.tone === 'ok' ? 'status' : 'alert'}>
                    {outcome.text}
                  </p>
                )}
                {m.type !== 'env_var' && m.type !== 'terminal' && !m.unsupported && outcome?.tone === 'error' && outcome.keyNames && outcome.keyNames.length > 0 && (
                  <KeyForm
                    names={outcome.keyNames}
                    label={`${m.name}: a key for ${agentName}`}
                    intro={
                      <p className="small">
                        {agentName} reads its key from {orList(outcome.keyNames)}. Paste the key here: Bosun keeps it in the keychain, restarts{' '}
                        {agentName} with it and signs in with {revealAsText(m.name)} again.
                      </p>
                    }
                    keychainAvailable={keychainAvailable}
                    disabled={anyBusy}
                    busy={busy === m.id}
                    submitLabel="Save key and sign in"
                    busyLabel="Signing in…"
                    onSubmit={(name, value) => onLogin(m.id, value, name)}
                  />
                )}
              </li>
            )
          })}
        </ul>
      )}

      {/* An agent that lists no way to sign in has nothing to sign out of, unless a check said it can: no word, no check to run. */}
      {!showLogout || (methods.length === 0 && logoutSupported !== true) ? null : logoutSupported === false ? (
        <p className="muted small">{agentName} does not offer signing out through Bosun.</p>
      ) : logoutSupported === undefined ? (
        <div className="login-logout-unknown">
          <p className="muted small">Checking the connection tells whether {agentName} can sign out through Bosun.</p>
          {onCheckConnection && (
            <button type="button" className="button button-secondary button-small" onClick={onCheckConnection} disabled={checkingConnection}>
              {checkingConnection ? 'Checking…' : 'Check connection'}
            </button>
          )}
        </div>
      ) : (
        <section className="login-logout" aria-label="Sign out">
          <div>
            <strong>Sign out</strong>
            <p className="muted small">Asks {agentName} to forget its credentials.</p>
          </div>
          <button type="button" className="button button-secondary" onClick={onLogout} disabled={anyBusy}>
            {loggingOut ? 'Signing out…' : 'Sign out'}
          </button>
          {logoutOutcome && (
            <p className={logoutOutcome.tone === 'ok' ? 'login-outcome-ok' : 'field-error'} role={logoutOutcome.tone === 'ok' ? 'status' : 'alert'}>
              {logoutOutcome.text}
            </p>
          )}
        </section>
      )}
    </div>
  )
}

export interface LoginPanelProps {
  api: BosunApi
  agentId: string
  agentName: string
  keychainAvailable: boolean
  /** Methods already known (from a connection check) to show while listing. */
  knownMethods?: readonly AuthMethodView[]
  /** Whether the agent supports logout, when a connection check said so. */
  logoutSupported?: boolean
  /** See {@link LoginViewProps.onCheckConnection}. */
  onCheckConnection?: () => void
  checkingConnection?: boolean
  /** See {@link LoginViewProps.showLogout}. */
  showLogout?: boolean
  /**
   * A login went through: the agent accepted `authenticate` / `auth/login`, or an env-var value was stored and
   * the agent restarted with it (main has finished the restart when this is called).
   */
  onLoggedIn?: (methodId: string) => void
  /** A terminal login ended with exit code 0 (main is restarting the agent; a request now joins that start). */
  onTerminalSucceeded?: (methodId: string) => void
  /** What saving one of the agent's unset keys is called (default "Save and restart"). */
  keySubmitLabel?: string
  /** One of the agent's unset keys was stored and the agent restarted with it. */
  onKeySaved?: (name: string) => void
  /** The owner is busy (the sign-in dialog asking for the session again): the key forms wait. */
  busy?: boolean
  /** See {@link LoginViewProps.refused}. */
  refused?: boolean
}

/** The Sign in tab wired to main (also the sign-in step when a new session needs one). */
export function LoginPanel(props: LoginPanelProps) {
  const { api, agentId, agentName, keychainAvailable, knownMethods, logoutSupported, showLogout, onLoggedIn, onTerminalSucceeded, keySubmitLabel, onKeySaved } =
    props
  const { onCheckConnection, checkingConnection } = props
  const tools = useMemo(() => agentTools(api), [api])
  const [methods, setMethods] = useState<readonly AuthMethodView[] | null>(knownMethods ?? null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [outcomes, setOutcomes] = useState<Record<string, LoginOutcome | undefined>>({})
  const [loggingOut, setLoggingOut] = useState(false)
  const [logoutOutcome, setLogoutOutcome] = useState<LoginOutcome | undefined>(undefined)
  const [terminal, setTerminal] = useState<{ methodId: string; terminalId: string; title: string } | null>(null)
  const [account, setAccount] = useState<AgentAccountView | null>(null)

  useEffect(() => tools.onAgentAccount((update) => update.agentId === agentId && setAccount(update.account)), [tools, agentId])
  useEffect(() => {
    let live = true
    void tools.listAuthMethods({ agentId }).then((r) => {
      if (!live) return
      if (r.ok) {
        setMethods(r.value.methods)
        // An update that came while listing is newer than what the list carried.
        if (r.value.account) setAccount((current) => current ?? r.value.account ?? null)
      } else {
        setProblem(`Could not list the sign-in methods: ${failureText(r.error)}`)
        setMethods((m) => m ?? [])
      }
    })
    return () => {
      live = false
    }
  }, [tools, agentId])

  const record = (key: string, outcome: LoginOutcome | undefined) => setOutcomes((o) => ({ ...o, [key]: outcome }))
  const login = (request: Parameters<typeof tools.loginAgent>[0]) => {
    const { methodId, keyName } = request
    setBusy(methodId)
    void tools.loginAgent(request).then((r) => {
      setBusy(null)
      // Cancelled by the person: nothing to report.
      if (!r.ok && r.error.kind === 'cancelled') return record(methodId, undefined)
      const keyNames = r.ok ? [] : keyNamesOf(r.error.data)
      record(
        methodId,
        r.ok
          ? { tone: 'ok', text: r.value.restarted ? `Saved. ${agentName} restarted with it${keyName !== undefined ? ' and signed in' : ''}.` : 'Signed in.' }
          : { tone: 'error', text: failureText(r.error), ...(keyNames.length > 0 ? { keyNames } : {}) },
      )
      if (r.ok) onLoggedIn?.(methodId)
    })
  }

  const missingKeys = (
    <MissingKeys
      api={api}
      tools={tools}
      agentId={agentId}
      agentName={agentName}
      keychainAvailable={keychainAvailable}
      disabled={busy !== null || loggingOut || props.busy === true}
      submitLabel={keySubmitLabel ?? 'Save and restart'}
      onSaved={(name) => onKeySaved?.(name)}
      replaceSet={props.refused === true}
    />
  )
  return (
    <>
      {/* Keys first when they can be stored; without a keychain their fields cannot be used: the ways that can go first. */}
      {keychainAvailable && missingKeys}
      <LoginView
        agentName={agentName}
        methods={methods}
        {...(logoutSupported === undefined ? {} : { logoutSupported })}
        {...(onCheckConnection === undefined ? {} : { onCheckConnection })}
        {...(checkingConnection === undefined ? {} : { checkingConnection })}
        {...(showLogout === undefined ? {} : { showLogout })}
        keychainAvailable={keychainAvailable}
        busy={busy}
        outcomes={outcomes}
        loggingOut={loggingOut}
        logoutOutcome={logoutOutcome}
        problem={problem}
        account={account}
        refused={props.refused ?? false}
        onGatewayLogin={(methodId, gateway) => login({ agentId, methodId, gateway })}
        onLogin={(methodId, value, keyName) => login({ agentId, methodId, ...(value !== undefined ? { value } : {}), ...(keyName !== undefined ? { keyName } : {}) })}
        onOpenTerminal={(methodId) => {
          setBusy(methodId)
          void tools.startAuthTerminal({ agentId, methodId }).then((r) => {
            setBusy(null)
            const method = methods?.find((m) => m.id === methodId)
            if (r.ok) setTerminal({ methodId, terminalId: r.value.terminalId, title: method?.name ?? methodId })
            else record(methodId, { tone: 'error', text: failureText(r.error) })
          })
        }}
        onCancelLogin={() => void tools.cancelAgentLogin({ agentId })}
        onLogout={() => {
          setLoggingOut(true)
          void tools.logoutAgent({ agentId }).then((r) => {
            setLoggingOut(false)
            setLogoutOutcome(r.ok ? { tone: 'ok', text: 'Signed out.' } : { tone: 'error', text: failureText(r.error) })
          })
        }}
        terminal={
          terminal
            ? {
                methodId: terminal.methodId,
                node: (
                  <AuthTerminal
                    key={terminal.terminalId}
                    tools={tools}
                    terminalId={terminal.terminalId}
                    title={terminal.title}
                    onClosed={(exit) => {
                      const methodId = terminal.methodId
                      setTerminal(null)
                      if (exit) record(methodId, { tone: exit.code === 0 ? 'ok' : 'error', text: onTerminalSucceeded ? `${exitText(exit)}.` : `${exitText(exit)}. Check the connection to see whether it worked.` })
                    }}
                    onExit={(exit) => {
                      if (exit.code === 0) onTerminalSucceeded?.(terminal.methodId)
                    }}
                  />
                ),
              }
            : null
        }
      />
      {!keychainAvailable && missingKeys}
    </>
  )
}

/**
 * The accessible name of a method's "Sign in" button: "Sign in with <method>", or the method's own name when that
 * already says it (GitHub Copilot CLI's "Log in with Copilot CLI" read "Log in with Log in with Copilot CLI"), its
 * "Log in" / "Login" said as Bosun says it, so the name starts with the button's text ("Sign in with Copilot CLI").
 */
export function loginButtonName(method: string): string {
  const said = /^\s*(?:log|sign)[ -]?in\b/i
  return said.test(method) ? method.replace(said, 'Sign in').trim() : `Sign in with ${method}`
}

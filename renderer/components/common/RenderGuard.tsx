import { Component, type ErrorInfo, type ReactNode } from 'react'

interface RenderGuardProps {
  /** What could not be shown, for the sentence in its place ("this part of the session"). */
  what: string
  /** When it changes (the entry was updated), the part is shown again. */
  resetKey?: unknown
  /** In place of the sentence: a whole-window fallback with its own way on. */
  fallback?: (error: Error) => ReactNode
  children: ReactNode
}

interface RenderGuardState {
  error: Error | null
  resetKey: unknown
}

/** How much of the error's own message the sentence quotes. */
const MAX_MESSAGE_CHARS = 200

/**
 * Keeps an error thrown while showing one part of the window (a transcript row, an agent's question) in that part.
 * React takes the whole page down on an error no boundary catches: one shape of an agent's data Bosun did not expect
 * blanked every session. The part says it could not be shown, and everything else goes on.
 */
export class RenderGuard extends Component<RenderGuardProps, RenderGuardState> {
  override state: RenderGuardState = { error: null, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<RenderGuardState> {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  static getDerivedStateFromProps(props: RenderGuardProps, state: RenderGuardState): Partial<RenderGuardState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { error: null, resetKey: props.resetKey }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[bosun ui] could not show ${this.props.what}`, error, info.componentStack)
  }

  override render(): ReactNode {
    const { error } = this.state
    if (!error) return this.props.children
    if (this.props.fallback) return this.props.fallback(error)
    const message = error.message.length > MAX_MESSAGE_CHARS ? `${error.message.slice(0, MAX_MESSAGE_CHARS)}…` : error.message
    return (
      <p className="render-guard muted small" role="note">
        Bosun could not show {this.props.what}
        {message ? ` (${message})` : ''}. The rest of the window is unaffected.
      </p>
    )
  }
}

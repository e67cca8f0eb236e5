import { useId } from 'react'
import type { PermissionRule } from '../../../common/contract/permissions'
import { revealAsText } from './reveal-text'
import './permissions.css'

export interface RulesSettingsProps {
  rules: readonly PermissionRule[]
  onRevoke: (ruleId: string) => void
}

/**
 * Remembered decisions ("always allow" / "always reject"), each said in words (main writes the words: what the
 * rule covers, for which agent), with a way to forget it. Session-scoped rules and retired rules of an older
 * format are labelled as such.
 */
export function RulesSettings({ rules, onRevoke }: RulesSettingsProps) {
  const titleId = useId()
  const sorted = [...rules].sort((a, b) => b.createdAt - a.createdAt)
  const retired = sorted.filter((rule) => rule.retired)
  return (
    <section className="perm-rules" aria-labelledby={titleId}>
      <h2 id={titleId}>Remembered decisions</h2>
      {retired.length > 0 ? (
        <p className="perm-remember-note" role="note">
          <span>{retiredNote(retired.length)}</span>
        </p>
      ) : null}
      {sorted.length === 0 ? (
        <p className="perm-muted">None yet. Choosing “always allow” or “always reject” in a request remembers it here.</p>
      ) : (
        <ul className="perm-rules-list">
          {sorted.map((rule) => (
            <li key={rule.ruleId} className={`perm-rule${rule.retired ? ' perm-rule-retired' : ''}`}>
              <div className="perm-rule-main">
                <span className={`perm-rule-what perm-tone-${rule.decision === 'allow_always' ? 'allow' : 'reject'}`}>{revealAsText(rule.label)}</span>
                {rule.retired ? <span className="perm-rule-badge perm-rule-badge-retired">Not applied</span> : null}
                {rule.sessionId ? <span className="perm-rule-badge">This session only</span> : null}
              </div>
              {rule.retired ? <div className="perm-rule-scope perm-muted">{revealAsText(rule.retired.reason)}</div> : null}
              <div className="perm-rule-scope perm-muted">
                {revealAsText(rule.agentName)} · sessions in {revealAsText(rule.cwd)}
                {rule.sessionId ? ' · forgotten when the session closes or Bosun quits' : ''} · since {new Date(rule.createdAt).toLocaleDateString()}
              </div>
              <button
                type="button"
                className="perm-rule-revoke"
                aria-label={`Forget: ${revealAsText(rule.label)}`}
                onClick={() => onRevoke(rule.ruleId)}
              >
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Why some rules are listed but not applied (they were migrated from an older, broader format). */
function retiredNote(count: number): string {
  const one = count === 1
  return (
    `${one ? 'One decision' : `${count} decisions`} remembered by an older version of Bosun covered more than what was approved. ` +
    `${one ? 'It is' : 'They are'} no longer applied and ${one ? 'is' : 'are'} listed below so you can see what changed: ` +
    `forget ${one ? 'it' : 'them'}, and answer “always” again where you still want one.`
  )
}

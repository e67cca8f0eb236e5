import { useId } from 'react'
import type { PermissionRule } from '../../../common/contract/permissions'
import { revealAsText } from './reveal-text'
import './permissions.css'

export interface RulesSettingsProps {
  rules: readonly PermissionRule[]
  onRevoke: (ruleId: string) => void
}

/** Remembered decisions ("always allow" / "always reject"), each with a way to forget it. */
export function RulesSettings({ rules, onRevoke }: RulesSettingsProps) {
  const titleId = useId()
  const sorted = [...rules].sort((a, b) => b.createdAt - a.createdAt)
  return (
    <section className="perm-rules" aria-labelledby={titleId}>
      <h2 id={titleId}>Remembered decisions</h2>
      {sorted.length === 0 ? (
        <p className="perm-muted">None yet. Choosing “always allow” or “always reject” in a request remembers it here.</p>
      ) : (
        <ul className="perm-rules-list">
          {sorted.map((rule) => (
            <li key={rule.ruleId} className="perm-rule">
              <div className="perm-rule-main">
                <span className={`perm-rule-decision perm-tone-${rule.decision === 'allow_always' ? 'allow' : 'reject'}`}>
                  {rule.decision === 'allow_always' ? 'Always allow' : 'Always reject'}
                </span>
                <span className="perm-rule-what">{describeTarget(rule)}</span>
              </div>
              <div className="perm-rule-scope perm-muted">
                {revealAsText(rule.agentName)} · {revealAsText(rule.cwd)}
                {rule.toolKind ? ` · ${revealAsText(rule.toolKind)}` : ''} · since {new Date(rule.createdAt).toLocaleDateString()}
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

function describeTarget(rule: PermissionRule): string {
  const paths = rule.paths?.map((p) => `${p.type === 'under' ? 'anything under ' : ''}${revealAsText(p.value)}`).join(', ')
  if (rule.command) {
    const command = `${rule.command.type === 'prefix' ? 'commands starting with ' : ''}${revealAsText(rule.command.value)}`
    return paths ? `${command} (in ${paths})` : command
  }
  return paths ?? 'any request of this kind'
}

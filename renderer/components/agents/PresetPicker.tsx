import type { AgentPresetView } from '../../../common/contract/agents'
import { commandLine } from './AgentList'
import { CodeText } from './CodeText'
import { Icon } from '../common/icons'

export interface PresetPickerProps {
  presets: readonly AgentPresetView[]
  onPick: (presetId: string) => void
  /** No Cancel button when absent (the first-run page has nowhere to go back to). */
  onCancel?: () => void
  /** Shown inside a larger page: a section heading instead of the page's own title and intro. */
  embedded?: boolean
}

/** The first step of "Add agent": pick a well-known agent (which only fills the form) or start from scratch. */
export function PresetPicker({ presets, onPick, onCancel, embedded = false }: PresetPickerProps) {
  // "Custom" last, whatever order main lists it in.
  const ordered = [...presets.filter((p) => p.id !== 'custom'), ...presets.filter((p) => p.id === 'custom')]
  return (
    <section className="preset-picker" aria-labelledby="preset-picker-title">
      {embedded ? (
        <h3 id="preset-picker-title" className="add-agent-section-title">
          Presets
        </h3>
      ) : (
        <h2 id="preset-picker-title" className="agents-pane-title">
          Add an agent
        </h2>
      )}
      {/* Under a section title of the add pane, in the small size of the other sections' intros. */}
      <p className={embedded ? 'muted small' : 'muted'}>Start from a known agent or from scratch. A preset only fills in the form: you can change everything before saving.</p>
      <ul className="preset-grid" aria-label="Presets">
        {ordered.map((preset) => (
          <li key={preset.id}>
            <button type="button" className="preset-card" data-preset-id={preset.id} onClick={() => onPick(preset.id)} aria-describedby={`preset-${preset.id}-desc`}>
              <span className="preset-card-name">{preset.id === 'custom' ? 'Custom agent' : preset.name}</span>
              <span id={`preset-${preset.id}-desc`} className="preset-card-desc muted small">
                <CodeText text={preset.description} />
                {preset.needs && preset.needs.length > 0 && (
                  <span className="preset-card-needs">
                    <span className="sr-only"> Needs: </span>
                    {preset.needs.map((need) => (
                      <span key={need.text} className="preset-need">
                        <span className={`badge badge-muted preset-need-kind`} aria-hidden="true">
                          {NEED_LABEL[need.kind] ?? need.kind}
                        </span>
                        <span className="preset-need-text">
                          <CodeText text={need.text} />
                        </span>
                      </span>
                    ))}
                  </span>
                )}
              </span>
              {preset.command && <span className="preset-card-command mono small">{commandLine(preset)}</span>}
              {/* The card is the button: its action is written on it, not only shown by a hover (keyboard, touch, a glance). */}
              <span className="preset-card-use">
                {preset.id === 'custom' ? 'Start from scratch' : 'Use this preset'}
                <Icon name="chevron" size={12} />
              </span>
            </button>
          </li>
        ))}
      </ul>
      {onCancel && (
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
    </section>
  )
}

const NEED_LABEL: Record<string, string> = { runtime: 'runtime', install: 'install', login: 'sign-in', key: 'key' }

import type { AgentPresetView } from '../../../common/contract/agents'
import { commandLine } from './AgentList'

export interface PresetPickerProps {
  presets: readonly AgentPresetView[]
  onPick: (presetId: string) => void
  onCancel: () => void
}

/** The first step of "Add agent": pick a well-known agent (which only fills the form) or start from scratch. */
export function PresetPicker({ presets, onPick, onCancel }: PresetPickerProps) {
  // "Custom" last, whatever order main lists it in.
  const ordered = [...presets.filter((p) => p.id !== 'custom'), ...presets.filter((p) => p.id === 'custom')]
  return (
    <section className="preset-picker" aria-labelledby="preset-picker-title">
      <h2 id="preset-picker-title" className="agents-pane-title">
        Add an agent
      </h2>
      <p className="muted">Start from a known agent or from scratch. A preset only fills in the form: you can change everything before saving.</p>
      <ul className="preset-grid" aria-label="Presets">
        {ordered.map((preset) => (
          <li key={preset.id}>
            <button type="button" className="preset-card" onClick={() => onPick(preset.id)} aria-describedby={`preset-${preset.id}-desc`}>
              <span className="preset-card-name">{preset.id === 'custom' ? 'Custom agent' : preset.name}</span>
              <span id={`preset-${preset.id}-desc`} className="preset-card-desc muted small">
                {preset.description}
              </span>
              {preset.command && <span className="preset-card-command mono small">{commandLine(preset)}</span>}
            </button>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}

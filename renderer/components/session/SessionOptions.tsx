/**
 * The agent's own choices for a session: its mode, its model and its config options (codex-acp offers five). They sit
 * under the composer, where the person writes what the next turn does, as Zed, Claude and Codex place them; the
 * header keeps one row however many the agent offers.
 */
import { memo } from 'react'
import type { ConfigOptionView, ModeView, ModelView } from '../../../common/session/types'
import { revealAsText } from '../permissions/reveal-text'

/** What an option the agent reports as current but does not list is called: its raw id, marked. */
const unlistedLabel = (id: string) => `${id} (not listed by the agent)`
const UNLISTED_TITLE = 'The agent reports this as current, but it is not among the choices the agent lists'

/** One of the agent's lists outside config options (its modes, its models): the choices and the current one. */
interface Choices {
  current: string | null
  available: { id: string; name: string; description?: string | null }[]
}

/**
 * A choice the agent lists outside config options. A current one the agent does not list (or one it reports with
 * none listed at all) is shown as it is, by its id: a select would show its first option as if it were the current one.
 */
function ChoiceSelect({ label, choices, onChange }: { label: string; choices: Choices; onChange: (id: string) => void }) {
  const { current, available } = choices
  if (available.length === 0) {
    if (current === null) return null
    return (
      <span className="session-option" role="group" aria-label={label} title={`The agent reports this ${label.toLowerCase()} but lists none to switch to`}>
        <span className="session-option-label">{label}</span>
        <span className="session-option-value">{current}</span>
      </span>
    )
  }
  const listed = available.find((c) => c.id === current)
  const unlisted = current !== null && !listed
  return (
    <label className="session-option">
      <span className="session-option-label">{label}</span>
      <select
        className={unlisted ? 'select select-unlisted' : 'select'}
        aria-label={label}
        value={current ?? ''}
        title={unlisted ? UNLISTED_TITLE : (listed?.description ?? listed?.name ?? undefined)}
        onChange={(e) => onChange(e.target.value)}
      >
        {current === null && <option value="">—</option>}
        {unlisted && (
          <option value={current} title={UNLISTED_TITLE}>
            {unlistedLabel(current)}
          </option>
        )}
        {available.map((choice) => (
          <option key={choice.id} value={choice.id} title={choice.description ?? undefined}>
            {revealAsText(choice.name)}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The session mode (v1 `modes`, when no config option is the mode). */
export const ModeSelect = memo(function ModeSelect({
  modes,
  onChange,
}: {
  modes: { currentModeId: string | null; availableModes: ModeView[] }
  onChange: (modeId: string) => void
}) {
  return <ChoiceSelect label="Mode" choices={{ current: modes.currentModeId, available: modes.availableModes }} onChange={onChange} />
})

/** The session model (v1 `models`, the unstable session models API, when no config option is the model). */
export const ModelSelect = memo(function ModelSelect({
  models,
  onChange,
}: {
  models: { currentModelId: string | null; availableModels: ModelView[] }
  onChange: (modelId: string) => void
}) {
  return <ChoiceSelect label="Model" choices={{ current: models.currentModelId, available: models.availableModels }} onChange={onChange} />
})

/**
 * Select and boolean config options; unknown option types are hidden. A select's current value that is not among
 * its options is shown as it is, marked (the browser would otherwise show the first option as the current one).
 */
export const ConfigOptions = memo(function ConfigOptions({
  options,
  onChange,
}: {
  options: ConfigOptionView[]
  onChange: (configId: string, value: string | boolean) => void
}) {
  return (
    <>
      {options.map((option) => {
        if (option.type === 'select') {
          const groups = [...new Set(option.options.map((o) => o.group).filter((g): g is string => Boolean(g)))]
          const render = (opts: ConfigOptionView['options']) =>
            opts.map((o) => (
              <option key={o.value} value={o.value} title={o.description ?? undefined}>
                {revealAsText(o.name)}
              </option>
            ))
          const value = typeof option.currentValue === 'string' ? option.currentValue : null
          const unlisted = value !== null && !option.options.some((o) => o.value === value)
          return (
            <label key={option.id} className="session-option">
              <span className="session-option-label">{revealAsText(option.name)}</span>
              <select
                className={unlisted ? 'select select-unlisted' : 'select'}
                aria-label={revealAsText(option.name)}
                title={unlisted ? UNLISTED_TITLE : (option.description ?? undefined)}
                value={value ?? ''}
                onChange={(e) => onChange(option.id, e.target.value)}
              >
                {value === null && <option value="">—</option>}
                {unlisted && (
                  <option value={value} title={UNLISTED_TITLE}>
                    {unlistedLabel(value)}
                  </option>
                )}
                {render(option.options.filter((o) => !o.group))}
                {groups.map((group) => (
                  <optgroup key={group} label={group}>
                    {render(option.options.filter((o) => o.group === group))}
                  </optgroup>
                ))}
              </select>
            </label>
          )
        }
        if (option.type === 'boolean') {
          const on = option.currentValue === true
          return (
            <button
              key={option.id}
              type="button"
              role="switch"
              aria-checked={on}
              className="switch"
              title={option.description ?? undefined}
              onClick={() => onChange(option.id, !on)}
            >
              <span className="switch-track" aria-hidden="true">
                <span className="switch-thumb" />
              </span>
              <span>{revealAsText(option.name)}</span>
            </button>
          )
        }
        return null
      })}
    </>
  )
})

export interface SessionOptionsProps {
  modes: { currentModeId: string | null; availableModes: ModeView[] } | null
  /** v1 session models (absent or null: none offered that way). */
  models?: { currentModelId: string | null; availableModels: ModelView[] } | null
  configOptions: ConfigOptionView[]
  onSetMode: (modeId: string) => void
  onSetModel?: (modelId: string) => void
  onSetConfigOption: (configId: string, value: string | boolean) => void
}

/** Every choice the agent offers for the session, in one group that wraps among itself. */
export const SessionOptions = memo(function SessionOptions({ modes, models, configOptions, onSetMode, onSetModel, onSetConfigOption }: SessionOptionsProps) {
  return (
    <div className="session-options" role="group" aria-label="Session options">
      {modes && <ModeSelect modes={modes} onChange={onSetMode} />}
      {models && onSetModel && <ModelSelect models={models} onChange={onSetModel} />}
      <ConfigOptions options={configOptions} onChange={onSetConfigOption} />
    </div>
  )
})

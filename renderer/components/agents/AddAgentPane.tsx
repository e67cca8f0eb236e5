import { useEffect, useRef } from 'react'
import type { AgentDefinitionView, AgentPresetView } from '../../../common/contract/agents'
import type { RegistryApi } from '../../screens/agents/registry-api'
import { DetectedAgents } from './DetectedAgents'
import { PresetPicker } from './PresetPicker'
import { RegistryBrowser } from './RegistryBrowser'
import './registry.css'

export interface AddAgentPaneProps {
  api: RegistryApi
  presets: readonly AgentPresetView[]
  /** No agent yet: a welcome instead of a plain "Add an agent". */
  firstRun: boolean
  onPickPreset: (presetId: string) => void
  /** An agent was added (detected) and should be shown. */
  onAdded: (agent: AgentDefinitionView) => void
  onOpenAgent: (agentId: string) => void
  onCancel?: () => void
  /** Opened by the person (Add agent, or back from a preset's form): this preset's card, or the first, takes the keyboard. */
  focusPreset?: string | true
}

/**
 * Adding an agent, and the first-run page: the agents found on this computer, the presets and the ACP
 * Registry, each one click (or a short form) from a ready definition.
 */
export function AddAgentPane({ api, presets, firstRun, onPickPreset, onAdded, onOpenAgent, onCancel, focusPreset }: AddAgentPaneProps) {
  const rootRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (focusPreset === undefined) return
    const cards = Array.from(rootRef.current?.querySelectorAll<HTMLButtonElement>('.preset-card') ?? [])
    const card = cards.find((c) => c.dataset['presetId'] === focusPreset) ?? cards[0]
    // No presets yet: the pane's heading, so the keyboard is in the pane all the same.
    ;(card ?? rootRef.current?.querySelector<HTMLElement>('.agents-pane-title'))?.focus()
    // On opening only: the person moves on from there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return (
    <div ref={rootRef} className="add-agent-pane">
      <header className="add-agent-header">
        <h2 className="agents-pane-title" tabIndex={-1}>{firstRun ? 'Set up your first agent' : 'Add an agent'}</h2>
        <p className="muted">
          {firstRun
            ? 'Bosun runs coding agents that speak the Agent Client Protocol. Add one found on this computer, start from a preset, or install one from the ACP Registry.'
            : 'Add an agent found on this computer, start from a preset, or install one from the ACP Registry.'}
        </p>
        {onCancel && (
          <button type="button" className="button button-secondary button-small add-agent-cancel" onClick={onCancel}>
            Cancel
          </button>
        )}
      </header>
      <DetectedAgents api={api} onAdded={onAdded} />
      <PresetPicker presets={presets} onPick={onPickPreset} embedded />
      <RegistryBrowser api={api} onOpenAgent={onOpenAgent} />
    </div>
  )
}

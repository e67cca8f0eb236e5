import { useId, useRef, type ReactNode } from 'react'

export const AGENT_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'check', label: 'Check connection' },
  { id: 'login', label: 'Sign in' },
  { id: 'logs', label: 'Logs' },
  { id: 'inspector', label: 'Inspector' },
] as const
export type AgentTabId = (typeof AGENT_TABS)[number]['id']

export interface AgentTabsProps {
  agentName: string
  selected: AgentTabId
  onSelect: (tab: AgentTabId) => void
  /** The selected tab's panel (only that one is mounted, so hidden tabs hold no subscriptions). */
  children: ReactNode
}

/** What a tab's button is used for (a narrow type: this file is also compiled without the DOM library). */
interface TabButton {
  focus(): void
  scrollIntoView(options: { block: 'nearest'; inline: 'nearest' }): void
}

/** WAI-ARIA tabs with automatic activation: arrows, Home and End move between tabs. */
export function AgentTabs({ agentName, selected, onSelect, children }: AgentTabsProps) {
  const ids = useId()
  const buttons = useRef(new Map<AgentTabId, TabButton>())
  const go = (tab: AgentTabId) => {
    onSelect(tab)
    const button = buttons.current.get(tab)
    button?.focus()
    // Tabs that do not fit scroll sideways: the one reached is brought into view (focusing it did not scroll the list).
    button?.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  }
  const index = AGENT_TABS.findIndex((t) => t.id === selected)
  return (
    <div className="agent-tabs">
      <div
        className="agent-tablist"
        role="tablist"
        aria-label={`${agentName} details`}
        onKeyDown={(e) => {
          const last = AGENT_TABS.length - 1
          const to =
            e.key === 'ArrowRight' ? (index + 1) % AGENT_TABS.length : e.key === 'ArrowLeft' ? (index + last) % AGENT_TABS.length : e.key === 'Home' ? 0 : e.key === 'End' ? last : -1
          if (to < 0) return
          e.preventDefault()
          go(AGENT_TABS[to]!.id)
        }}
      >
        {AGENT_TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`${ids}-tab-${tab.id}`}
            aria-selected={tab.id === selected}
            aria-controls={`${ids}-panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            className="agent-tab"
            ref={(el) => {
              if (el) buttons.current.set(tab.id, el as unknown as TabButton)
              else buttons.current.delete(tab.id)
            }}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        className={`agent-tabpanel agent-tabpanel-${selected}`}
        role="tabpanel"
        id={`${ids}-panel-${selected}`}
        aria-labelledby={`${ids}-tab-${selected}`}
        tabIndex={selected === 'inspector' || selected === 'logs' ? -1 : 0}
      >
        {children}
      </div>
    </div>
  )
}

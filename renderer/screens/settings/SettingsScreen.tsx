import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { McpSettings, type McpApi } from '../../components/mcp/McpSettings'
import type { BosunApi } from '../../../common/contract'
import type { NotificationSettings, PermissionRule } from '../../../common/contract/permissions'
import { RulesSettings } from '../../components/permissions/RulesSettings'
import { shortcutList } from '../../components/common/shortcuts'
import { useModalFocus } from '../../components/common/modal-focus'
import { scrollForKey } from '../../components/common/page-scroll-keys'
import { PageBanner } from '../../components/common/PageBanner'
import { notificationPermission, requestNotificationPermission } from '../../notifications/page-attention'
import './settings-screen.css'

export type SettingsApi = Pick<BosunApi, 'listRules' | 'revokeRule' | 'onRulesChanged' | 'getNotificationSettings' | 'setNotificationSettings'> & Partial<McpApi>

export interface SettingsScreenProps {
  api: SettingsApi
  onClose: () => void
  /**
   * Where Bosun runs: in a browser the page shows the notifications itself and needs the browser's
   * permission; in Electron the OS notifications need nothing from the page.
   */
  host: 'browser' | 'electron'
  /** The app's own notices, shown under the header (in the window's corner they covered the page's controls). */
  notices?: ReactNode
}

/**
 * Settings: notifications (waiting approvals, turn ends, the browser's permission) and the remembered
 * decisions, each of which can be forgotten. It fills the window over the session view, like the Agents page.
 */
export function SettingsScreen({ api, onClose, host, notices }: SettingsScreenProps) {
  const [rules, setRules] = useState<readonly PermissionRule[] | null>(null)
  const [settings, setSettings] = useState<NotificationSettings | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  // Tab stays on the page (the window behind it is inert: from its last control Tab went to the browser, or nowhere).
  useModalFocus(rootRef)

  // Escape closes, from inside the page or when focus fell back to the body (a button that went away).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      const target = event.target as Node | null
      if (target !== document.body && !rootRef.current?.contains(target)) return
      event.preventDefault()
      onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])

  useEffect(() => {
    let live = true
    const off = api.onRulesChanged(({ rules: next }) => setRules(next))
    void api.listRules(undefined).then((result) => {
      if (!live) return
      if (result.ok) setRules((current) => current ?? result.value)
      else setProblem(`Could not load the remembered decisions: ${result.error.message}`)
    })
    void api.getNotificationSettings(undefined).then((result) => {
      if (!live) return
      if (result.ok) setSettings(result.value)
      else setProblem(`Could not load the notification settings: ${result.error.message}`)
    })
    headingRef.current?.focus()
    return () => {
      live = false
      off()
    }
  }, [api])

  const update = useCallback(
    (patch: Partial<NotificationSettings>) => {
      // Optimistic, then whatever main says is in force.
      setSettings((current) => (current ? { ...current, ...patch } : current))
      void api.setNotificationSettings(patch).then((result) => {
        if (result.ok) setSettings(result.value)
        else setProblem(`Could not save the notification settings: ${result.error.message}`)
      })
    },
    [api],
  )

  const revoke = useCallback(
    (ruleId: string) => {
      void api.revokeRule({ ruleId }).then((result) => {
        if (result.ok) setRules((current) => current?.filter((r) => r.ruleId !== ruleId) ?? current)
        else setProblem(`Could not forget the decision: ${result.error.message}`)
      })
    },
    [api],
  )

  return (
    <div ref={rootRef} className="settings-screen" role="dialog" aria-modal="true" aria-labelledby="settings-screen-title">
      <header className="settings-screen-header">
        <h1
          id="settings-screen-title"
          className="settings-screen-title"
          tabIndex={-1}
          ref={headingRef}
          // The page opens with the focus here: the scroll keys scroll the page (they did nothing).
          onKeyDown={(e) => {
            if (scrollForKey(bodyRef.current, e)) e.preventDefault()
          }}
        >
          Settings
        </h1>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close
        </button>
      </header>
      {notices}
      {problem ? (
        <PageBanner onDismiss={() => setProblem(null)}>{problem}</PageBanner>
      ) : null}
      <div ref={bodyRef} className="settings-screen-body">
        <NotificationSection settings={settings} onChange={update} host={host} />
        {rules === null ? <p className="muted">Loading the remembered decisions…</p> : <RulesSettings rules={rules} onRevoke={revoke} />}
        {isMcpApi(api) && <McpSettings api={api} />}
        <ShortcutsSection host={host} />
      </div>
    </div>
  )
}

function NotificationSection({
  settings,
  onChange,
  host,
}: {
  settings: NotificationSettings | null
  onChange: (patch: Partial<NotificationSettings>) => void
  host: 'browser' | 'electron'
}) {
  const titleId = useId()
  const enabledHint = useId()
  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <h2 id={titleId}>Notifications</h2>
      {settings === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <label className="settings-check">
            <input
              type="checkbox"
              checked={settings.enabled}
              aria-describedby={enabledHint}
              onChange={(e) => onChange({ enabled: e.currentTarget.checked })}
            />
            <span>Notify me when an agent waits for an answer</span>
          </label>
          <p id={enabledHint} className="muted small settings-hint">
            Only while Bosun is in the background. Several requests in a row become one notification.
          </p>
          <label className="settings-check">
            <input
              type="checkbox"
              checked={settings.notifyOnTurnEnd}
              disabled={!settings.enabled}
              onChange={(e) => onChange({ notifyOnTurnEnd: e.currentTarget.checked })}
            />
            <span>Also notify when an agent finishes a turn</span>
          </label>
          {host === 'browser' ? <BrowserPermission /> : null}
        </>
      )}
    </section>
  )
}

/** Every key the app answers in this host (`shortcutList`): nowhere else lists them. */
function ShortcutsSection({ host }: { host: 'browser' | 'electron' }) {
  const titleId = useId()
  return (
    <section className="settings-section settings-shortcuts" aria-labelledby={titleId}>
      <h2 id={titleId}>Keyboard shortcuts</h2>
      {shortcutList(host).map(({ group, items }) => (
        <table key={group} className="settings-shortcut-table">
          <caption>{group}</caption>
          <tbody>
            {items.map((item) => (
              <tr key={item.keys + item.what}>
                <th scope="row">
                  <kbd>{item.keys}</kbd>
                </th>
                <td>{item.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  )
}

/** The browser's own permission: asked only when the person clicks (browsers ignore requests without a gesture). */
function BrowserPermission() {
  const [permission, setPermission] = useState(() => notificationPermission())
  const ask = () => void requestNotificationPermission().then(setPermission)
  return (
    <div className="settings-permission" role="group" aria-label="Browser permission">
      {permission === 'granted' ? (
        <p className="muted small">This browser may show Bosun’s notifications.</p>
      ) : permission === 'default' ? (
        <>
          <p className="muted small">This browser has not yet allowed Bosun to show notifications.</p>
          <button type="button" className="button button-primary button-small" onClick={ask}>
            Enable notifications
          </button>
        </>
      ) : permission === 'denied' ? (
        <p className="muted small">This browser blocks Bosun’s notifications. Allow them in the site settings of your browser (the icon left of the address).</p>
      ) : (
        <p className="muted small">This browser cannot show notifications; the tab title shows how many requests wait.</p>
      )}
    </div>
  )
}

function isMcpApi(api: SettingsApi): api is SettingsApi & McpApi {
  return api.listMcpServers !== undefined && api.saveMcpServer !== undefined && api.removeMcpServer !== undefined && api.checkMcpServer !== undefined
}

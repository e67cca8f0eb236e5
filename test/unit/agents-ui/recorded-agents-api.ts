/**
 * What the Agents screen's browser tests bundle first: the imports, and the dev preview's fake API (`fake`) as `api`,
 * every call recorded in `window.__calls` (events passed through). `prelude` runs before the fake is made;
 * `options` is the source of `createFakeAgentsBosun`'s argument. The test's entry then renders what it needs.
 */
import type { Page } from 'playwright'

export const recordedAgentsApi = ({ prelude = '', options = '{ keychainAvailable: true }' }: { prelude?: string; options?: string } = {}) => `
import { createRoot } from 'react-dom/client'
import { AgentsScreen } from './renderer/screens/agents/AgentsScreen'
import { createFakeAgentsBosun } from './renderer/dev/agents/fake-agents'
${prelude}
const fake = createFakeAgentsBosun(${options})
const calls = []
window.__calls = calls
const api = new Proxy(fake.api, {
  get(target, prop) {
    const value = target[prop]
    if (typeof value !== 'function' || /^on[A-Z]/.test(prop)) return value
    return (arg) => { calls.push([prop, arg]); return value(arg) }
  },
})
`

/** The arguments of every recorded call named `name`, in order. */
export const callsOf = (page: Page, name: string) =>
  page.evaluate((n) => (window as unknown as { __calls: [string, unknown][] }).__calls.filter(([c]) => c === n).map(([, a]) => a), name)

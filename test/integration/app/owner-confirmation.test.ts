/**
 * The browser host (issue 10 §2): the token holder is the owner, so main's confirmations are granted on
 * their behalf, through the same gates as in Electron, and recorded in `confirmations.jsonl` with
 * `by: "owner"`. A launch confirmed once is remembered in `trusted-agents.json`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { must, servicesPerTest } from '../../support/services'

const start = servicesPerTest()
const records = (home: string) =>
  readFileSync(join(home, 'confirmations.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; host: string; confirmed: boolean; by: string; detail: string })

describe('browser host: the owner confirms, and it is on record', () => {
  it('the first start of an agent written outside Bosun, then auto-approve: granted, recorded, asked once', async () => {
    const { services, handlers, testHome, workspace } = await start([{ id: 'scripted', name: 'Scripted', scenario: 'basic' }])
    const { sessionId } = must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    must(await handlers.setAutoApprove({ sessionId, value: true }))
    // A second session of the same agent: already confirmed, not asked again.
    must(await handlers.newSession({ agentId: 'scripted', cwd: workspace }))
    await services.dispose()

    const recorded = records(testHome.home)
    expect(recorded.map((r) => [r.kind, r.host, r.confirmed, r.by])).toEqual([
      ['agent-start', 'web', true, 'owner'],
      ['auto-approve', 'web', true, 'owner'],
    ])
    expect(recorded[0]!.detail).toContain(`Program: ${JSON.stringify(process.execPath)}`)
    const trusted = JSON.parse(readFileSync(join(testHome.home, 'trusted-agents.json'), 'utf8')) as { agents: Record<string, string> }
    expect(Object.keys(trusted.agents)).toEqual(['scripted'])
  })
})

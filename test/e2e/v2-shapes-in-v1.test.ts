/**
 * A v1 agent that sends v2 shapes (liberal in what Bosun accepts, see test/unit/conformance/v2-shapes-in-v1.test.ts):
 * its whole-message upserts, streamed tool call content and plan by id show as they would in a v2 session, not as
 * "unknown update" rows. Screenshot: test/e2e/screenshots/v2-shapes-in-v1.png.
 */
import { expect, it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { agentSays, openPlan, sendPrompt, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Newer v1 agent'
const writeScenario = scenarioFiles()
const launch = launchPerTest()

const entry = (content: string, status: string) => ({ content, priority: 'medium', status })

it('shows the v2 messages, tool content chunks and plan a v1 agent sends', async () => {
  const scenario = writeScenario('v2-in-v1', {
    prompts: {
      go: [
        { type: 'update', update: { sessionUpdate: 'agent_thought', messageId: 't1', content: [{ type: 'text', text: 'Looking at the build first.' }] } },
        { type: 'update', update: { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [entry('Read the build script', 'completed'), entry('Fix the failing step', 'in_progress')] } } },
        { type: 'update', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read build.sh', kind: 'read', status: 'in_progress' } },
        { type: 'update', update: { sessionUpdate: 'tool_call_content_chunk', toolCallId: 'c1', content: { type: 'content', content: { type: 'text', text: 'set -e; make all' } } } },
        { type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' } },
        { type: 'update', update: { sessionUpdate: 'agent_message', messageId: 'a1', content: [{ type: 'text', text: 'The build stops at ' }] } },
        { type: 'update', update: { sessionUpdate: 'agent_message_chunk', messageId: 'a1', content: { type: 'text', text: 'the **make all** step.' } } },
      ],
    },
  })
  const { page } = await launch.session({ id: 'v1', name: AGENT, scenario }, { viewport: { width: 1100, height: 760 } })
  await sendPrompt(page, 'go')
  await visible(agentSays(page, AGENT).getByText('The build stops at', { exact: false }))
  await waitIdle(page)
  await visible(transcript(page).getByText('Looking at the build first.'))
  await visible(transcript(page).getByText('Read build.sh'))
  const plan = await openPlan(page)
  await visible(plan.getByText('Fix the failing step'))
  // Nothing was left as a generic "unknown update" row.
  expect(await transcript(page).getByText(/agent_message|plan_update|tool_call_content_chunk|agent_thought/).count()).toBe(0)
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await page.addStyleTag({ content: '* { caret-color: transparent !important; }' })
  await screenshot(page, 'v2-shapes-in-v1')
})

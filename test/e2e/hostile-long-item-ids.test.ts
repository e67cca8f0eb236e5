/**
 * A v2 agent that names a tool call and its terminal with 3,000 characters each. Pressing Cancel did nothing: the
 * window sent the id as it was, and the contract refused it (2,048). Now the window names a long id by its hash,
 * and main finds the item by that hash. Cancel then says "Cancelling…", and the card and the terminal end cancelled
 * (screenshot hostile-long-item-ids).
 */
import { it } from 'vitest'
import { launchPerTest, screenshot } from './support/harness'
import { scenarioFiles } from './support/scenario-file'
import { gone, sendPrompt, startSession, transcript, visible, waitIdle } from './support/session-ui'

const AGENT = 'Long ids agent'
const launch = launchPerTest()
const scenarioFile = scenarioFiles()

it('Cancel works on a tool call and on a terminal whose ids are 3,000 characters long', async () => {
  const callId = `call-${'c'.repeat(3_000)}`
  const terminalId = `term-${'t'.repeat(3_000)}`
  const scenario = scenarioFile('long-item-ids', {
    cancelToolCalls: { [callId]: {} },
    cancelTerminals: { [terminalId]: {} },
    prompts: {
      default: [
        { type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: callId, title: 'Build the project', kind: 'execute', status: 'in_progress', capabilities: { cancel: {} } } },
        { type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: 'call-dev', title: 'Start the dev server', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] } },
        { type: 'update', update: { sessionUpdate: 'terminal_update', terminalId, command: 'npm run dev', output: { data: Buffer.from('> vite\nListening on http://localhost:5173\n').toString('base64') }, capabilities: { cancel: {} } } },
        { type: 'tool_call_update', id: 'call-dev', status: 'completed' },
        { type: 'text', text: 'Both keep running in the background.' },
      ],
    },
  })
  const app = await launch([{ id: 'long', name: AGENT, scenario, v2: true }], { viewport: { width: 1100, height: 760 } })
  const { page } = app
  await startSession(page, { agentName: AGENT, cwd: app.home.workspace })
  await sendPrompt(page, 'go')
  await waitIdle(page)
  const build = transcript(page).getByRole('article', { name: /Build the project/ })
  await (await visible(build.getByRole('button', { name: 'Cancel Build the project' }))).click()
  await visible(build.getByText('Cancelled'))
  await gone(build.getByRole('button', { name: /Cancel/ }))
  const dev = transcript(page).getByRole('article', { name: /Start the dev server/ })
  await (await visible(dev.getByRole('button', { name: /^Cancel/ }))).click()
  await gone(dev.getByRole('button', { name: /^Cancel/ }))
  await visible(dev.getByText(/SIGTERM/))
  await screenshot(page, 'hostile-long-item-ids')
}, 60_000)

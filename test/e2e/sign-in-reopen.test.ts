/**
 * A sign-in that does not reach the session it was for: an agent that applies a login only to sessions it builds
 * after it (claude-agent-acp's "Custom model gateway" login, and any Claude session reopened after a restart) keeps
 * refusing the session's messages with auth_required after the person signed in from it. Bosun says so where the
 * person types and offers Reopen session (session/close, then session/resume, as from the history): the transcript
 * stays, the refused message is resent and answered. An agent that can neither resume nor load gets no such button.
 *
 * The login is agent-driven (no key stored): run under `scripts/with-keyring.sh` as the other sign-in tests are.
 */
import { describe, expect, it } from 'vitest'
import { expectAxeCleanInBothThemes } from './support/axe'
import { screenshot, useApp } from './support/harness'
import { agentGroup, gone, messageBox, startSession, transcript, until, visible } from './support/session-ui'

const { app, page } = useApp([
  { id: 'later-auth', name: 'Gateway-login agent', scenario: 'e2e-prompt-auth-later' },
  { id: 'later-auth-no-resume', name: 'No-resume agent', scenario: 'e2e-prompt-auth-later-no-resume' },
])

const signInDialog = (agentName: string) => page.getByRole('dialog', { name: `Sign in to ${agentName}` })
const reopenNotice = () => page.getByRole('alert', { name: 'Signed in, but this session still refuses' })

/** Sends `text`, which the agent refuses (auth required), and signs in from the refused message. */
async function refusedThenSignedIn(agentName: string, text: string) {
  await startSession(page, { agentName, cwd: app.home.workspace })
  await messageBox(page).fill(text)
  await messageBox(page).press('Enter')
  const note = await visible(page.getByRole('note', { name: 'Not sent' }).last())
  await note.getByRole('button', { name: 'Sign in…' }).click()
  const dialog = await visible(signInDialog(agentName))
  await dialog.getByRole('button', { name: 'Sign in with Custom model gateway' }).click()
  await gone(dialog)
  // Nothing is said before the session refuses again: most agents apply a sign-in to every session.
  expect(await reopenNotice().count()).toBe(0)
  // Resend: refused again, for the same reason.
  await note.getByRole('button', { name: 'Resend' }).click()
  await expect.poll(() => page.getByRole('note', { name: 'Not sent' }).count()).toBe(2)
}

describe('a sign-in the agent applies only to later sessions', () => {
  it('the session that still refuses offers Reopen session; reopened, the resent message is answered and the transcript stayed', async () => {
    await refusedThenSignedIn('Gateway-login agent', 'hello from before')
    const notice = await visible(reopenNotice())
    await visible(notice.getByText('Signed in, but this session was started before'))
    await screenshot(page, 'sign-in-reopen-offered-light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'sign-in-reopen-offered-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await expectAxeCleanInBothThemes(page, 'the notice to reopen a session after a sign-in', '.session-reopen')
    // The refused text is still in the message box: nothing the person typed is lost.
    expect(await messageBox(page).inputValue()).toBe('hello from before')
    // One way on, the notice's: the refused messages no longer offer Sign in (it went through, to the same refusal).
    expect(await page.getByRole('note', { name: 'Not sent' }).getByRole('button', { name: 'Sign in…' }).count()).toBe(0)

    await notice.getByRole('button', { name: 'Reopen session' }).click()
    await gone(notice)
    await visible(page.getByRole('status').filter({ hasText: 'Session reopened' }))
    await screenshot(page, 'sign-in-reopen-done-light')
    const last = page.getByRole('note', { name: 'Not sent' }).last()
    await last.getByRole('button', { name: 'Resend' }).click()
    await visible(transcript(page).getByText('Hello, signed-in session.'))
    // The same session (one in the sidebar), its transcript kept: both refusals are still shown.
    expect(await agentGroup(page, 'Gateway-login agent').getByRole('listitem').count()).toBe(1)
    expect(await page.getByRole('note', { name: 'Not sent' }).count()).toBe(2)
    await expect.poll(() => messageBox(page).inputValue()).toBe('')
    expect(await page.getByRole('status').filter({ hasText: 'Session reopened' }).count()).toBe(0)
  })

  it('an agent that can neither resume nor load: the notice offers a new session here instead of Reopen, and the new session takes the message', async () => {
    await refusedThenSignedIn('No-resume agent', 'hello again')
    const notice = await visible(reopenNotice())
    await visible(notice.getByText('start a new session'))
    expect(await notice.getByRole('button', { name: 'Reopen session' }).count()).toBe(0)
    expect(await page.getByRole('note', { name: 'Not sent' }).getByRole('button', { name: 'Sign in…' }).count()).toBe(0)
    await until<HTMLTextAreaElement>(messageBox(page), (el) => !el.disabled)
    await screenshot(page, 'sign-in-reopen-cannot-light')
    // A new session in the same folder: built after the sign-in, it takes the message, which the person had typed
    // (changed since the refusal) and finds in the new session's message box.
    await messageBox(page).fill('hello again, changed')
    await notice.getByRole('button', { name: 'New session here' }).click()
    await expect.poll(() => agentGroup(page, 'No-resume agent').getByRole('listitem').count()).toBe(2)
    await gone(reopenNotice())
    await expect.poll(() => messageBox(page).inputValue()).toBe('hello again, changed')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message')
    await screenshot(page, 'sign-in-reopen-new-session-light')
    await messageBox(page).press('Enter')
    await visible(transcript(page).getByText('Hello, signed-in session.'))
  })
})

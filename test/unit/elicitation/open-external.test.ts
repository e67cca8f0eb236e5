import { describe, expect, it } from 'vitest'
import { createExternalOpener, OPEN_BURST, OPEN_REFILL_MS } from '../../../main/elicitation/open-external'
import { checkUrl } from '../../../common/url-safety'
import { urlCorpus } from './url-corpus'

function recorder() {
  const opened: string[] = []
  return { opened, open: async (url: string) => void opened.push(url) }
}

describe('the external-open chokepoint', () => {
  it('opens an offered URL after consent, using the parsed href', async () => {
    const r = recorder()
    const opener = createExternalOpener(r.open)
    opener.offer('e1', 'HTTPS://Example.com/connect?x=1')
    const result = await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'HTTPS://Example.com/connect?x=1' })
    expect(result).toEqual({ ok: true, value: { openedBy: 'main', href: 'https://example.com/connect?x=1' } })
    expect(r.opened).toEqual(['https://example.com/connect?x=1'])
  })

  it('refuses without a matching offer (no consent token)', async () => {
    const r = recorder()
    const opener = createExternalOpener(r.open)
    const result = await opener.openAfterConsent({ elicitationRequestId: 'nope', url: 'https://example.com/' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.kind).toBe('not-found')
    expect(r.opened).toEqual([])
  })

  it('refuses a URL other than the one offered under that consent', async () => {
    const r = recorder()
    const opener = createExternalOpener(r.open)
    opener.offer('e1', 'https://good.example/')
    const result = await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://evil.example/' })
    expect(result.ok).toBe(false)
    expect(r.opened).toEqual([])
  })

  it('refuses after the offer was withdrawn', async () => {
    const r = recorder()
    const opener = createExternalOpener(r.open)
    opener.offer('e1', 'https://good.example/')
    opener.withdraw('e1')
    expect((await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://good.example/' })).ok).toBe(false)
    expect(opener.offeredIds).toEqual([])
    expect(r.opened).toEqual([])
  })

  /** Every string the dialog refuses: the whole corpus's refusals, and a few more. */
  const refused = [
    ...urlCorpus.filter((c) => !c.ok).map((c) => c.url),
    'data:text/html,hi',
    'vscode://x',
    'not a url',
    'https://example.com/' + 'a'.repeat(9000),
  ]
  const accepted = urlCorpus.filter((c) => c.ok).map((c) => c.url)

  it('covers the whole corpus', () => {
    expect(refused.length).toBeGreaterThanOrEqual(30)
    expect(accepted.length + refused.length).toBeGreaterThanOrEqual(urlCorpus.length)
  })

  it.each(refused.map((url) => [JSON.stringify(url.length > 80 ? url.slice(0, 80) + '…' : url), url]))('refuses what the dialog refuses, even with consent: %s', async (_name, url) => {
    const r = recorder()
    const opener = createExternalOpener(r.open)
    opener.offer('e1', url)
    expect(checkUrl(url).ok).toBe(false)
    const result = await opener.openAfterConsent({ elicitationRequestId: 'e1', url })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).toBe(checkUrl(url).refusal)
    expect(r.opened).toEqual([])
  })

  it.each(accepted.map((url) => [JSON.stringify(url), url]))('opens what the dialog accepts once, with the href it showed: %s', async (_name, url) => {
    const r = recorder()
    const opener = createExternalOpener(r.open)
    opener.offer('e1', url)
    const check = checkUrl(url)
    expect(check.ok).toBe(true)
    expect(await opener.openAfterConsent({ elicitationRequestId: 'e1', url })).toEqual({ ok: true, value: { openedBy: 'main', href: check.href } })
    expect(r.opened).toEqual([check.href])
  })

  it('in the browser host (no opener), tells the page to open the checked href', async () => {
    const opener = createExternalOpener()
    opener.offer('e1', 'https://example.com/a')
    expect(await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://example.com/a' })).toEqual({
      ok: true,
      value: { openedBy: 'page', href: 'https://example.com/a' },
    })
  })

  it('reports a browser that fails to open as a value', async () => {
    const opener = createExternalOpener(async () => {
      throw new Error('no browser')
    })
    opener.offer('e1', 'https://example.com/')
    const result = await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://example.com/' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.kind).toBe('io-error')
  })

  describe('links clicked in agent output (openLink)', () => {
    it.each(refused.map((url) => [JSON.stringify(url.length > 80 ? url.slice(0, 80) + '…' : url), url]))(
      'never hands a refused URL to the opener: %s',
      async (_name, url) => {
        const r = recorder()
        const result = await createExternalOpener(r.open).openLink(url)
        expect(result.ok).toBe(false)
        if (!result.ok) expect(result.error.message).toBe(checkUrl(url).refusal)
        expect(r.opened).toEqual([])
      },
    )

    it('opens an accepted URL by its parsed href, without any offer', async () => {
      const r = recorder()
      expect(await createExternalOpener(r.open).openLink('https://EXAMPLE.com/a b')).toEqual({
        ok: true,
        value: { openedBy: 'main', href: 'https://example.com/a%20b' },
      })
      expect(r.opened).toEqual(['https://example.com/a%20b'])
      expect(await createExternalOpener().openLink('http://127.0.0.1:8080/x')).toEqual({ ok: true, value: { openedBy: 'page', href: 'http://127.0.0.1:8080/x' } })
    })
  })
})

describe('the bound on opening addresses in the system browser', () => {
  it('opens a burst, then one more per refill interval; a refused open reaches no browser', async () => {
    const r = recorder()
    let clock = 1_000_000
    const opener = createExternalOpener(r.open, () => clock)
    for (let i = 0; i < OPEN_BURST; i++) expect((await opener.openLink(`https://example.com/${i}`)).ok).toBe(true)
    const refused = await opener.openLink('https://example.com/more')
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error.kind).toBe('busy')
    opener.offer('e1', 'https://example.com/consented')
    expect((await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://example.com/consented' })).ok).toBe(false)
    expect(r.opened).toHaveLength(OPEN_BURST)
    clock += OPEN_REFILL_MS
    expect((await opener.openAfterConsent({ elicitationRequestId: 'e1', url: 'https://example.com/consented' })).ok).toBe(true)
    expect((await opener.openLink('https://example.com/again')).ok).toBe(false)
    clock += OPEN_REFILL_MS * 100
    for (let i = 0; i < OPEN_BURST; i++) expect((await opener.openLink(`https://example.com/later-${i}`)).ok).toBe(true)
    expect((await opener.openLink('https://example.com/past-burst')).ok).toBe(false)
    expect(r.opened).toHaveLength(2 * OPEN_BURST + 1)
  })

  it('does not bound the browser host, where the page opens the address itself', async () => {
    const opener = createExternalOpener(undefined, () => 0)
    for (let i = 0; i < OPEN_BURST * 4; i++) expect((await opener.openLink(`https://example.com/${i}`)).ok).toBe(true)
  })
})

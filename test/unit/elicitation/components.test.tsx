import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { BosunApi } from '../../../common/contract'
import { ElicitationCard, type ElicitationApi } from '../../../renderer/components/elicitation/ElicitationCard'
import { ElicitationForm } from '../../../renderer/components/elicitation/ElicitationForm'
import { UrlConsentDialog } from '../../../renderer/components/elicitation/UrlConsentDialog'
import { LinkConsentDialog } from '../../../renderer/components/elicitation/LinkConsentDialog'
import { checkDraft, parseFormSchema } from '../../../renderer/components/elicitation/validate'
import type { ElicitationView } from '../../../common/session/types'

const base: ElicitationView = {
  elicitationRequestId: 'el-1',
  agentId: 'a',
  agentName: 'Agent A',
  sessionId: 's1',
  mode: 'form',
  message: 'Tell me more, see https://evil.example/x',
  createdAt: 0,
  status: 'pending',
}

const schema = {
  type: 'object',
  title: 'Project setup',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Docs at https://docs.example.com', default: 'demo', maxLength: 40 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    count: { type: 'integer', minimum: 1, maximum: 9, default: 3 },
    ratio: { type: 'number' },
    agree: { type: 'boolean', default: true },
    lang: { type: 'string', oneOf: [{ const: 'ts', title: 'TypeScript' }, { const: 'rs', title: 'Rust' }] },
    region: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f'] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['y'], maxItems: 1 },
    tint: { type: '_color', title: 'Tint' },
  },
  required: ['name', 'lang'],
}

const form = (over: Partial<ElicitationView> = {}) =>
  renderToStaticMarkup(<ElicitationForm elicitation={{ ...base, requestedSchema: schema, ...over }} onRespond={() => undefined} />)

describe('ElicitationForm (static render)', () => {
  it('renders one expected control per property type, defaults pre-filled', () => {
    const html = form()
    expect(html).toMatch(/<input[^>]*type="text"[^>]*value="demo"/)
    expect(html).toMatch(/<input[^>]*type="email"/)
    expect(html).toMatch(/<input[^>]*type="url"/)
    expect(html).toMatch(/<input[^>]*type="date"/)
    expect(html).toMatch(/<input[^>]*type="number"[^>]*step="1"[^>]*min="1"[^>]*max="9"[^>]*value="3"/)
    expect(html).toMatch(/<input[^>]*type="number"[^>]*step="any"/)
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/)
    expect(html.match(/type="radio"/g)).toHaveLength(2)
    expect(html).toMatch(/<select[^>]*>.*<option value="f">f<\/option>/)
    expect(html).toContain('<input type="checkbox" checked="" value="y"/>')
    expect(html).toContain('Choose at most 1.')
  })

  it('an answered form offers nothing to change: no "Clear choice" under its chosen option', () => {
    // claude-agent-acp's AskUserQuestion: one optional choice per question (and an "Other" text).
    const question = { type: 'object', properties: { q: { type: 'string', title: 'Database', oneOf: [{ const: 'pg', title: 'Postgres' }, { const: 'redis', title: 'Redis' }], default: 'pg' } } }
    expect(form({ requestedSchema: question })).toContain('Clear choice')
    expect(form({ requestedSchema: question, status: 'accepted' })).not.toContain('Clear choice')
  })

  it('marks required fields for eyes and screen readers', () => {
    const html = form()
    expect(html).toContain('(required)')
    expect(html).toMatch(/aria-required="true"/)
  })

  it('shows an unsupported optional field as a note, never as a control', () => {
    const html = form()
    expect(html).toContain('Bosun cannot show this kind of field (_color)')
    expect(html).not.toMatch(/data-field="tint"/)
  })

  it('shows fields named like members of Object.prototype, and a "__proto__" one as a field it cannot show', () => {
    // As the agent's JSON parses: `__proto__` is an own key. The page went blank (React error #31) on this form.
    const requestedSchema = JSON.parse(
      '{"properties":{"__proto__":{"type":"string","title":"Proto"},"constructor":{"type":"string","title":"Maker"},"toString":{"type":"boolean","title":"Flag"}},"required":["__proto__","constructor"]}',
    ) as unknown
    const html = form({ requestedSchema })
    expect(html).toMatch(/<textarea[^>]*data-field="constructor"[^>]*><\/textarea>/)
    expect(html).not.toContain('aria-invalid')
    expect(html).toMatch(/<input[^>]*data-field="toString"[^>]*type="checkbox"\/>/)
    expect(html).not.toMatch(/data-field="__proto__"/)
    expect(html).toContain('This form requires a field Bosun cannot show (Proto)')
  })

  it('never renders a link, even for URLs in messages and descriptions', () => {
    const html = form()
    expect(html).toContain('https://docs.example.com')
    expect(html).not.toMatch(/<a[\s>]/)
  })

  it('offers Accept, Decline and Cancel while pending; only the status afterwards', () => {
    const html = form()
    expect(html).toMatch(/>Accept</)
    expect(html).toMatch(/>Decline</)
    expect(html).toMatch(/>Cancel</)
    const done = form({ status: 'declined' })
    expect(done).toContain('Declined')
    expect(done).not.toMatch(/>Accept</)
  })

  it('warns when a field looks like it asks for a secret (G21)', () => {
    expect(form()).not.toContain('password or key')
    const html = renderToStaticMarkup(
      <ElicitationForm elicitation={{ ...base, requestedSchema: { properties: { api_key: { type: 'string', title: 'API key' } } } }} onRespond={() => undefined} />,
    )
    expect(html).toContain('password or key')
  })

  it('shows a form with a required field it cannot show, explained, with Accept disabled and Decline/Cancel offered', () => {
    const html = renderToStaticMarkup(
      <ElicitationForm
        elicitation={{ ...base, requestedSchema: { properties: { colour: { type: '_color', title: 'Colour' }, note: { type: 'string', title: 'Note' } }, required: ['colour'] } }}
        onRespond={() => undefined}
      />,
    )
    expect(html).toContain('This form requires a field Bosun cannot show (Colour), so it')
    expect(html).toContain('Bosun cannot show this kind of field (_color), and the agent requires it.')
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Accept</)
    expect(html).toMatch(/>Decline</)
    expect(html).toMatch(/>Cancel</)
    // The fields it can show are still there.
    expect(html).toContain('Note')
  })

  it('shows an optional nested object and list of objects read-only with a note; Accept stays on for the rest', () => {
    const html = renderToStaticMarkup(
      <ElicitationForm
        elicitation={{
          ...base,
          requestedSchema: {
            properties: {
              address: { type: 'object', title: 'Address', properties: { street: { type: 'string' } } },
              people: { type: 'array', title: 'People', items: { type: 'object', properties: {} } },
              name: { type: 'string', title: 'Name' },
            },
          },
        }}
        onRespond={() => undefined}
      />,
    )
    expect(html).toContain('Bosun cannot show this kind of field (object); it is optional and is left out of your answer.')
    expect(html).toContain('Bosun cannot show this kind of field (array of object); it is optional and is left out of your answer.')
    expect(html).not.toMatch(/data-field="(address|people)"/)
    expect(html).toMatch(/data-field="name"/)
    expect(html).not.toContain('Bosun cannot show this form')
    expect(html).toMatch(/<button type="submit" class="eli-button eli-primary">Accept</)
  })

  it('shows a form with malformed annotations and a mixed enum: property names for bad titles, the string choices and a note', () => {
    const html = renderToStaticMarkup(
      <ElicitationForm
        elicitation={{
          ...base,
          requestedSchema: {
            properties: {
              size: { type: 'string', title: 5, enum: ['small', 1, 'large'] },
              count: { type: 'number', title: 'Count', default: '5' },
            },
          },
        }}
        onRespond={() => undefined}
      />,
    )
    expect(html).not.toContain('Bosun cannot show this form')
    expect(html).toMatch(/<legend class="eli-label"><span>size/)
    expect(html.match(/type="radio"/g)).toHaveLength(2)
    expect(html).toMatch(/<fieldset role="radiogroup"[^>]*aria-describedby="[^"]*-f-size-omitted"/)
    expect(html).toContain('One choice the agent offered could not be shown (not text), so it is left out.')
    expect(html).toMatch(/<input[^>]*type="number"[^>]*value=""/)
  })

  it('shows hidden and direction-changing characters in the agent\'s texts as markers: message, titles, descriptions, choices', () => {
    const rlo = '\u202E'
    const spoofed = {
      type: 'object',
      title: `Setup ${rlo}gnp.exe`,
      description: `About ${rlo}x`,
      properties: {
        plan: { type: 'string', title: `Plan${rlo}`, description: `Pick\u200B one`, oneOf: [{ const: 'a', title: `Keep ${rlo}enod` }, { const: 'b', title: 'Other' }] },
        many: { type: 'string', title: 'Many', enum: ['1', '2', '3', '4', '5', `6${rlo}`] },
        tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['x', `y${rlo}`] } },
      },
    }
    const html = form({ message: `Approve ${rlo}exe.txt`, requestedSchema: spoofed })
    // Only a choice's value keeps it (what is sent back), never its text.
    expect(html.replace(/ value="[^"]*"/g, '')).not.toContain(rlo)
    expect(html).not.toContain('\u200B')
    for (const text of ['Setup U+202Egnp.exe', 'About U+202Ex', 'Approve U+202Eexe.txt', 'Keep U+202Eenod', 'PickU+200B one', 'yU+202E']) {
      expect(html.replace(/<[^>]+>/g, '')).toContain(text)
    }
    expect(html).toContain('6⟨U+202E⟩')
    const url = dialog({ ...urlView('https://example.com/'), message: `Open ${rlo}moc.elgoog` })
    expect(url).not.toContain(rlo)
  })

  it('shows a pattern it does not run as a visible note on its field, described-by the input', () => {
    const html = renderToStaticMarkup(
      <ElicitationForm
        elicitation={{ ...base, requestedSchema: { properties: { pin: { type: 'string', title: 'PIN', maxLength: 8, pattern: '^(?=.*\\d).{4}$' } } } }}
        onRespond={() => undefined}
      />,
    )
    expect(html).toMatch(/<input[^>]*aria-describedby="[^"]*-f-pin-pattern"[^>]*data-field="pin"|<input[^>]*data-field="pin"[^>]*aria-describedby="[^"]*-f-pin-pattern"/)
    expect(html).toMatch(/<p id="[^"]*-f-pin-pattern" class="[^"]*eli-field-note">Not checked by Bosun: the agent’s pattern <code class="eli-pattern">\^\(\?=\.\*\\d\)\.\{4\}\$<\/code>/)
    expect(html).toMatch(/<button type="submit" class="eli-button eli-primary">Accept</)
  })

  it('offers only decline/cancel for a schema it cannot show', () => {
    const html = renderToStaticMarkup(
      <ElicitationForm elicitation={{ ...base, requestedSchema: { properties: { a: { type: 'integer', minimum: 5, maximum: 1 } } } }} onRespond={() => undefined} />,
    )
    expect(html).toContain('Bosun cannot show this form')
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""/)
    expect(html).toMatch(/>Decline</)
  })
})

describe('renderer validation (checkDraft)', () => {
  const parsed = parseFormSchema(schema)
  if (!parsed.ok) throw new Error(parsed.message)
  it('reports errors by field and the content to send', () => {
    const out = checkDraft(parsed.schema, { name: '', count: '12', lang: '', tags: ['x', 'y'], agree: true })
    expect(Object.keys(out.errors).sort()).toEqual(['count', 'lang', 'name', 'tags'])
    const ok = checkDraft(parsed.schema, { name: 'n', count: '2', lang: 'rs', tags: ['y'], agree: false, email: 'a@b.co' })
    expect(ok.errors).toEqual({})
    expect(ok.content).toEqual({ name: 'n', count: 2, lang: 'rs', tags: ['y'], agree: false, email: 'a@b.co' })
  })
  it('checks a pattern valid only without u; leaves one re2js cannot run unchecked instead of refusing the form', () => {
    const p = parseFormSchema({ properties: { phone: { type: 'string', pattern: '^\\d{3}\\-\\d{4}$' }, pin: { type: 'string', pattern: '^(?=.*\\d).{4}$' } } })
    if (!p.ok) throw new Error(p.message)
    expect(checkDraft(p.schema, { phone: '555-1234', pin: 'abcd' })).toEqual({ content: { phone: '555-1234', pin: 'abcd' }, errors: {}, unchecked: [] })
    expect(Object.keys(checkDraft(p.schema, { phone: '5551234', pin: 'abcd' }).errors)).toEqual(['phone'])
  })
  it('checks a catastrophic pattern itself, in linear time (re2js), instead of freezing the page', () => {
    const p = parseFormSchema({ properties: { code: { type: 'string', pattern: '^(a+)+$' } } })
    if (!p.ok) throw new Error(p.message)
    const out = checkDraft(p.schema, { code: 'a'.repeat(5000) + '!' })
    expect(Object.keys(out.errors)).toEqual(['code'])
    expect(out.unchecked).toEqual([])
    expect(checkDraft(p.schema, { code: 'a'.repeat(5000) }).errors).toEqual({})
  })
})

const urlView = (url: string, over: Partial<ElicitationView> = {}): ElicitationView => ({
  ...base,
  mode: 'url',
  message: 'Sign in to GitHub',
  url,
  elicitationId: 'ext',
  ...over,
})
const dialog = (view: ElicitationView) =>
  renderToStaticMarkup(
    <UrlConsentDialog
      elicitation={view}
      onOpen={async () => ({ ok: false, message: 'x' })}
      onRetry={async () => ({ ok: false, message: 'x' })}
      onDecline={() => undefined}
      onCancel={() => undefined}
      onDismiss={() => undefined}
    />,
  )

describe('UrlConsentDialog (static render)', () => {
  it('shows the parsed URL as text with the host highlighted', () => {
    const html = dialog(urlView('HTTPS://Auth.Example.com/connect?x=1'))
    // The registrable domain in bold, the labels before it plain (issue 13).
    expect(html).toContain('<mark class="eli-url-host"><span class="eli-url-subdomain">auth.</span><strong class="eli-url-domain">example.com</strong></mark>')
    expect(html).toContain('https://')
    expect(html).toContain('/connect?x=1')
    expect(html).not.toMatch(/<a[\s>]/)
    expect(html).toMatch(/>Open in browser</)
    expect(html).not.toContain('Warnings about this address')
  })

  it('warns about Punycode and mixed scripts, showing both host forms', () => {
    const html = dialog(urlView('https://xn--pple-43d.com/login'))
    expect(html).toContain('Warnings about this address')
    expect(html).toContain('Punycode')
    expect(html).toContain('mixes alphabets')
    expect(html).toContain('аpple.com')
  })

  it('warns about userinfo and shows the real host', () => {
    const html = dialog(urlView('https://github.com@evil.example/'))
    expect(html).toContain('<mark class="eli-url-host"><strong class="eli-url-domain">evil.example</strong></mark>')
    expect(html).toContain('not the site you will visit')
  })

  it('refuses bad schemes: no Open button, decline/cancel only', () => {
    const html = dialog(urlView('javascript:alert(1)'))
    expect(html).toContain('Bosun will not open this address')
    expect(html).not.toMatch(/>Open in browser</)
    expect(html).toMatch(/>Decline</)
    expect(html).toMatch(/>Cancel</)
  })

  it('after consent, waits for completion with retry and dismiss', () => {
    const html = dialog(urlView('https://auth.example.com/', { status: 'accepted' }))
    expect(html).toContain('Waiting for Agent A')
    expect(html).toMatch(/>Open again</)
    expect(html).toMatch(/>Stop waiting</)
    expect(html).not.toMatch(/>Decline</)
  })

  it('shows the end state when completed', () => {
    expect(dialog(urlView('https://auth.example.com/', { status: 'completed' }))).toContain('Done.')
  })
})

describe('ElicitationCard', () => {
  // Compile-time: window.bosun satisfies the card's API.
  const asApi = (api: BosunApi): ElicitationApi => api
  const api: ElicitationApi = {
    respondElicitation: async () => ({ ok: true, value: undefined }),
    openElicitationUrl: async () => ({ ok: true, value: { openedBy: 'main', href: 'https://x/' } }),
    retryElicitationUrl: async () => ({ ok: true, value: { openedBy: 'main', href: 'https://x/' } }),
    dismissElicitationUrl: async () => ({ ok: true, value: undefined }),
  }
  it('renders the form or the URL consent by mode', () => {
    expect(typeof asApi).toBe('function')
    const formHtml = renderToStaticMarkup(<ElicitationCard elicitation={{ ...base, requestedSchema: schema }} api={api} />)
    expect(formHtml).toContain('<form')
    const urlHtml = renderToStaticMarkup(<ElicitationCard elicitation={urlView('https://auth.example.com/')} api={api} />)
    expect(urlHtml).toContain('Open in browser')
    expect(urlHtml).not.toContain('<form')
  })
})

describe('LinkConsentDialog (static render)', () => {
  const link = (url: string) =>
    renderToStaticMarkup(<LinkConsentDialog url={url} onOpen={async () => ({ ok: false, message: 'unused' })} onClose={() => {}} />)

  it('shows a clicked link like a URL elicitation: parsed address, host highlighted, warnings, Open and Cancel', () => {
    const html = link('https://xn--80ak6aa92e.com/login')
    expect(html).toContain('Open this page in your browser?')
    expect(html).toMatch(/<mark class="eli-url-host"><strong class="eli-url-domain">xn--80ak6aa92e\.com<\/strong><\/mark>/)
    expect(html).toContain('Punycode')
    expect(html).toMatch(/>Open in browser</)
    expect(html).toMatch(/>Cancel</)
    expect(html).not.toMatch(/<a\b|href=/i)
  })

  it('refuses other schemes: an explanation and Close, no Open button', () => {
    for (const url of ['javascript:alert(1)', 'vscode://file/etc/passwd', 'mailto:a@example.com']) {
      const html = link(url)
      expect(html).toContain('Bosun will not open this link')
      expect(html).not.toMatch(/>Open in browser</)
      expect(html).toMatch(/>Close</)
    }
  })
})

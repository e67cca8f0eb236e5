/**
 * What an accepted form keeps of its answer, to show it once the page that sent it is gone (a reload, another window):
 * the values of its fields, except any field that looks like it asks for a secret (G21), which is withheld by name
 * and never kept. Main keeps it on the elicitation's view; the history stores it with the session.
 */
import type { Content, ContentValue, Draft, FieldSpec, FormSchema } from './schema'

/** Words in a field's name or title that say it may hold a password, a token or a key (G21). */
const SECRET_WORDS = /pass(word|phrase)?|secret|token|api[\s_-]?key|credential|private[\s_-]?key/i

/** Whether a field looks like it asks for a secret: the form warns about it, and its answer is never kept. */
export function looksSecret(field: Pick<FieldSpec, 'key' | 'title'>): boolean {
  return SECRET_WORDS.test(field.key) || SECRET_WORDS.test(field.title)
}

/** An accepted form's answer as kept: the values sent (text cut to {@link KEPT_TEXT}), and the fields withheld. */
export interface KeptAnswer {
  content: Content
  /** Keys of fields that were answered but are not kept (they look like secrets). */
  withheld: string[]
}

/** The longest text kept of one answer: enough to recognise it, without keeping a pasted file twice. */
export const KEPT_TEXT = 2_000
/** The characters kept of a whole answer (a form may have 100 fields, a list 500 choices). */
export const KEPT_TOTAL = 64_000

/** What is kept of `content` (already checked against `schema` by main): only the schema's fields, never a secret-like one. */
export function keptAnswer(schema: FormSchema, content: Content): KeptAnswer {
  const kept: Content = {}
  const withheld: string[] = []
  let room = KEPT_TOTAL
  const text = (value: string) => {
    const cut = value.slice(0, Math.min(KEPT_TEXT, room))
    room -= cut.length
    return cut
  }
  for (const field of schema.fields) {
    if (!Object.hasOwn(content, field.key)) continue
    const value: ContentValue = content[field.key]!
    if (looksSecret(field)) withheld.push(field.key)
    else if (typeof value === 'string') kept[field.key] = text(value)
    else if (Array.isArray(value)) kept[field.key] = value.filter(() => room > 0).map(text)
    else kept[field.key] = value
  }
  return { content: kept, withheld }
}

/** The form's fields as they were sent, for the answered form to show: a field left out of the answer is empty. */
export function sentDraft(schema: FormSchema, answer: KeptAnswer): Draft {
  const draft: Draft = {}
  for (const field of schema.fields) {
    const value = Object.hasOwn(answer.content, field.key) ? answer.content[field.key] : undefined
    switch (field.kind) {
      case 'text':
      case 'select':
        draft[field.key] = typeof value === 'string' ? value : ''
        break
      case 'number':
        draft[field.key] = typeof value === 'number' ? String(value) : ''
        break
      case 'boolean':
        draft[field.key] = value === true
        break
      case 'multi-select':
        draft[field.key] = Array.isArray(value) ? value : []
        break
      case 'unsupported':
        break
    }
  }
  return draft
}

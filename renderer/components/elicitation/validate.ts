/**
 * The renderer's side of form validation: the same pure schema model and checks main uses
 * (`common/elicitation/schema.ts`), with agent patterns on the same linear-time engine (re2js), so
 * no pattern can freeze the page; main validates again on submit (G16).
 */
import {
  draftToContent,
  parseRequestedSchema,
  linearPatternTester,
  validateContent,
  type Draft,
  type FormSchema,
  type SchemaParse,
} from '../../../common/elicitation/schema'

export { initialDraft, unanswerableFields } from '../../../common/elicitation/schema'
export type { Draft, DraftValue, EnumChoice, FieldSpec, FormSchema } from '../../../common/elicitation/schema'
export { checkUrl, urlWarningText } from '../../../common/url-safety'
export type { UrlCheck, UrlWarning } from '../../../common/url-safety'

export interface DraftCheck {
  /** What would be sent. */
  content: Record<string, unknown>
  /** Person-facing messages by field key (`''` = the form as a whole). */
  errors: Record<string, string>
  /** Fields whose pattern is checked by main on submit. */
  unchecked: string[]
}

/** Main already accepted this schema under the agent's version; the v1 reading is the lenient superset. */
export function parseFormSchema(requestedSchema: unknown): SchemaParse {
  return parseRequestedSchema(requestedSchema, { protocolVersion: 1 })
}

export function checkDraft(schema: FormSchema, draft: Draft): DraftCheck {
  const content = draftToContent(schema, draft)
  const { errors, unchecked } = validateContent(schema, content, linearPatternTester)
  return { content, errors, unchecked }
}

/**
 * The renderer's side of form validation: the same pure schema model and checks main uses
 * (`main/elicitation/schema.ts`, no Node APIs), with agent patterns run only when a static check finds them
 * safe. Patterns it cannot check are left to main's time-limited re-validation on submit (G16).
 */
import {
  draftToContent,
  parseRequestedSchema,
  staticPatternTester,
  validateContent,
  type Draft,
  type FormSchema,
  type SchemaParse,
} from '../../../common/elicitation/schema'

export { initialDraft, isPatternSafe, unanswerableFields } from '../../../common/elicitation/schema'
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
  const { errors, unchecked } = validateContent(schema, content, staticPatternTester)
  return { content, errors, unchecked }
}

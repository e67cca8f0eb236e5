import { z } from 'zod'

/**
 * Building blocks of the IPC contract. A call is renderer → main with one argument parsed from unknown in
 * main; its answer is always a {@link CallResult} (expected failures are values, not exceptions).
 * An event is main → renderer.
 */
export interface CallSpec<I extends z.ZodType, O extends z.ZodType> {
  readonly kind: 'call'
  readonly input: I
  readonly output: O
}

export interface EventSpec<P extends z.ZodType> {
  readonly kind: 'event'
  readonly payload: P
}

export function call<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): CallSpec<I, O> {
  return { kind: 'call', input, output }
}

export function event<P extends z.ZodType>(payload: P): EventSpec<P> {
  return { kind: 'event', payload }
}

export const failureSchema = z.object({
  kind: z.string(),
  message: z.string(),
  stderrTail: z.string().optional(),
  code: z.number().optional(),
  data: z.unknown().optional(),
})
export type IpcFailure = z.infer<typeof failureSchema>

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: IpcFailure }

/**
 * A record of at most `maxEntries` entries. `z.record` has no bound of its own, and an unbounded map the renderer
 * sends (an environment, secrets, a form's answer) would be kept, written to disk or sent on entry by entry.
 */
export function boundedRecord<K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V, maxEntries: number) {
  return z.record(key, value).refine((record) => Object.keys(record).length <= maxEntries, { message: `At most ${maxEntries} entries` })
}

/**
 * Shared small schemas. An id may be one of Bosun's that carries an agent's (a session: `<agent id>/<the agent's session
 * id>`, the agent's up to 1,024 characters, the agent id's up to 128, and a `#n` when taken): at 512, the window could not
 * send, stop or close a session whose agent named it with 1,000 characters.
 */
export const id = z.string().min(1).max(2048)
export const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path')

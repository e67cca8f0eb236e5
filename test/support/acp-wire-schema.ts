/**
 * Checks client → agent JSON-RPC lines against the SDK's published JSON schema of the negotiated version
 * (`@agentclientprotocol/sdk/schema/v{1,2}/schema.json`): "strict in what you send" (checklist A4, B1, C2, C4,
 * G1, G18, G25, I2, I6).
 *
 * The schema leaves objects open (no `additionalProperties: false` anywhere), so a field the spec does not
 * have would pass. Every place an object value sits (a message's params or result, a property's value, an
 * array's items) that declares properties is made closed here (`unevaluatedProperties: false`, which sees
 * through `allOf`/`oneOf`/`$ref`, so a tagged variant's `type` and its payload's fields both count). `_meta`
 * and the other free-form values stay open.
 *
 * Methods the stable schema does not have are checked against the version's `schema.unstable.json` when it
 * defines them; `_`-prefixed extension methods only get the envelope check. v1 `session/set_model` (sent only to a v1
 * agent whose `session/new` listed models, as Gemini CLI's does) is in neither of the SDK's v1 schemas.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'

type Json = Record<string, unknown>
type Schema = Json & { $defs?: Record<string, Json> }

const sdkRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '@agentclientprotocol', 'sdk')

const INTEGER_FORMATS: Record<string, [number, number]> = {
  uint16: [0, 65_535],
  uint32: [0, 4_294_967_295],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  int32: [-2_147_483_648, 2_147_483_647],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Whether `schema` (through `$ref` and the combinators) describes an object with declared properties. */
function declaresProperties(schema: unknown, defs: Record<string, Json>, seen = new Set<unknown>()): boolean {
  if (!isRecord(schema) || seen.has(schema)) return false
  seen.add(schema)
  if ('additionalProperties' in schema) return false
  if (isRecord(schema.properties)) return true
  if (typeof schema.$ref === 'string') return declaresProperties(defs[schema.$ref.replace('#/$defs/', '')], defs, seen)
  // A union with a branch that takes any value (v2 `ErrorData`'s "Other") stays open.
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key]
    if (Array.isArray(list) && list.some(takesAnything)) return false
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key]
    if (Array.isArray(list) && list.some((branch) => declaresProperties(branch, defs, seen))) return true
  }
  return false
}

/** A schema with no constraint on what it accepts (only annotations such as `title`/`description`). */
function takesAnything(schema: unknown): boolean {
  return isRecord(schema) && Object.keys(schema).every((key) => key === 'title' || key === 'description')
}

/** Closes every object position (see the file comment) in place. */
function closePositions(schema: unknown, defs: Record<string, Json>, isPosition: boolean): void {
  if (Array.isArray(schema)) {
    for (const item of schema) closePositions(item, defs, false)
    return
  }
  if (!isRecord(schema)) return
  if (isPosition && declaresProperties(schema, defs)) schema.unevaluatedProperties = false
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isRecord(value)) {
      for (const property of Object.values(value)) closePositions(property, defs, true)
    } else if (key === 'items' || key === 'prefixItems' || (key === 'additionalProperties' && isRecord(value))) {
      closePositions(value, defs, key !== 'prefixItems')
    } else if (key !== 'unevaluatedProperties' && typeof value === 'object') {
      closePositions(value, defs, false)
    }
  }
}

interface VersionSchemas {
  /** `method` → the def of its params / of the result answering it, by direction. */
  agentMethodParams: Map<string, ValidateFunction>
  agentMethodResult: Map<string, ValidateFunction>
  clientMethodResult: Map<string, ValidateFunction>
  notificationParams: Map<string, ValidateFunction>
  requestId?: ValidateFunction
  error?: ValidateFunction
}

function compileVersion(version: 1 | 2): VersionSchemas {
  const schemas: VersionSchemas = {
    agentMethodParams: new Map(),
    agentMethodResult: new Map(),
    clientMethodResult: new Map(),
    notificationParams: new Map(),
  }
  // Stable last, so its defs win for methods both files have.
  for (const file of ['schema.unstable.json', 'schema.json']) {
    const schema = JSON.parse(readFileSync(join(sdkRoot, 'schema', `v${version}`, file), 'utf8')) as Schema
    const defs = schema.$defs ?? {}
    for (const def of Object.values(defs)) closePositions(def, defs, false)
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    for (const [name, [min, max]] of Object.entries(INTEGER_FORMATS)) {
      ajv.addFormat(name, { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= min && n <= max })
    }
    ajv.addFormat('double', { type: 'number', validate: () => true })
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:/i)
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i)
    ajv.addFormat('regex', { validate: () => true })
    ajv.addSchema({ $id: 'acp', $defs: defs })
    // A def is closed where it is used (a variant adds its tag next to an `allOf` of the def), and as a message's root here.
    const compile = (name: string) =>
      ajv.compile(declaresProperties(defs[name], defs) ? { $ref: `acp#/$defs/${name}`, unevaluatedProperties: false } : { $ref: `acp#/$defs/${name}` })
    for (const [name, def] of Object.entries(defs)) {
      const method = def['x-method']
      if (typeof method !== 'string') continue
      const side = def['x-side']
      if (name.endsWith('Request') && side === 'agent') schemas.agentMethodParams.set(method, compile(name))
      else if (name.endsWith('Response') && side === 'agent') schemas.agentMethodResult.set(method, compile(name))
      else if (name.endsWith('Response') && side === 'client') schemas.clientMethodResult.set(method, compile(name))
      else if (name.endsWith('Notification') && side !== 'client') schemas.notificationParams.set(method, compile(name))
    }
    schemas.requestId = compile('RequestId')
    schemas.error = compile('Error')
  }
  return schemas
}

const compiled = new Map<1 | 2, VersionSchemas>()
function schemasFor(version: 1 | 2): VersionSchemas {
  let schemas = compiled.get(version)
  if (!schemas) compiled.set(version, (schemas = compileVersion(version)))
  return schemas
}

/** Whether the version's schema (stable or unstable) defines a client → agent method. */
export function isSchemaMethod(version: 1 | 2, method: string): boolean {
  const schemas = schemasFor(version)
  return schemas.agentMethodParams.has(method) || schemas.notificationParams.has(method)
}

function problems(validate: ValidateFunction, value: unknown, what: string): string[] {
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message}${e.params && 'unevaluatedProperty' in e.params ? ` (${String(e.params.unevaluatedProperty)})` : ''}`)
}

function extraKeys(message: Json, allowed: string[]): string[] {
  return Object.keys(message)
    .filter((key) => !allowed.includes(key))
    .map((key) => `unexpected top-level key "${key}"`)
}

/**
 * The problems of one line Bosun sent, empty when it conforms. `answers(id)` gives the method of the agent's
 * request a response answers (undefined when unknown: then only the envelope and `Error` are checked).
 */
export function checkClientLine(version: 1 | 2, line: string, answers: (id: unknown) => string | undefined): string[] {
  const schemas = schemasFor(version)
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return ['not JSON']
  }
  if (!isRecord(message)) return ['not a JSON object (batches and bare values are never sent)']
  if (line.includes('\n')) return ['contains a raw newline']
  const found: string[] = []
  if (message.jsonrpc !== '2.0') found.push('jsonrpc is not "2.0"')
  const method = message.method
  if (typeof method === 'string') {
    const isRequest = 'id' in message
    found.push(...extraKeys(message, ['jsonrpc', 'method', 'params', ...(isRequest ? ['id'] : [])]))
    if (isRequest) {
      found.push(...problems(schemas.requestId!, message.id, 'id'))
      if (message.id === null) found.push('id is null')
    }
    const validate = isRequest ? schemas.agentMethodParams.get(method) : schemas.notificationParams.get(method)
    if (validate) found.push(...problems(validate, message.params, `${method} params`))
    else if (!method.startsWith('_')) found.push(`${method} is not a client → agent ${isRequest ? 'request' : 'notification'} of v${version}`)
    return found
  }
  if ('result' in message === 'error' in message) return ['a response needs exactly one of result and error']
  found.push(...extraKeys(message, ['jsonrpc', 'id', 'result', 'error']))
  if (message.id !== null) found.push(...problems(schemas.requestId!, message.id, 'id'))
  if ('error' in message) {
    found.push(...problems(schemas.error!, message.error, 'error'))
    return found
  }
  const answered = answers(message.id)
  const validate = answered === undefined ? undefined : schemas.clientMethodResult.get(answered)
  if (validate) found.push(...problems(validate, message.result, `${answered} result`))
  return found
}

/**
 * Checks one agent's `--wire-log` (test/agents/scripted-agent.ts): each line Bosun sent against the schema, and the exchange around it: `initialize` before
 * anything else (C1, again after a restart), no id of Bosun's reused while its request is pending (B6), and each
 * request of the agent answered at most once, never a request it did not send (B3). The agent's requests are kept by
 * id, so each response is checked against the request it answers.
 */
export function checkWireLog(version: 1 | 2, log: string): { sent: number; methods: Set<string>; problems: string[] } {
  const entries = log
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { dir: 'in' | 'out'; line: string })
  const asked = new Map<string, string>()
  const pendingOwn = new Set<string>()
  let initializeId: string | undefined
  let initialized = false
  const methods = new Set<string>()
  const problems: string[] = []
  let sent = 0
  for (const { dir, line } of entries) {
    let message: Record<string, unknown> | undefined
    try {
      const parsed: unknown = JSON.parse(line)
      message = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
    } catch {
      message = undefined
    }
    const key = message && 'id' in message ? JSON.stringify(message.id) : undefined
    const method = typeof message?.method === 'string' ? message.method : undefined
    if (dir === 'out') {
      if (method !== undefined && key !== undefined) asked.set(key, method)
      else if (method === undefined && key !== undefined) {
        pendingOwn.delete(key)
        if (key === initializeId && 'result' in message!) initialized = true
      }
      continue
    }
    sent++
    if (method === 'initialize') {
      // A new process (a restart) starts over; a repeated initialize (v1 after a refused v2) too.
      initialized = false
      asked.clear()
      pendingOwn.clear()
      initializeId = key
    } else if (method !== undefined && key !== undefined && !initialized) {
      problems.push(`${method} sent before initialize was answered`)
    }
    if (method !== undefined && key !== undefined) {
      if (pendingOwn.has(key)) problems.push(`id ${key} reused while a request with it is pending`)
      pendingOwn.add(key)
    }
    if (method !== undefined) methods.add(method)
    else if (key !== undefined) {
      methods.add(`→ ${asked.get(key) ?? 'unknown request'}`)
      if (key !== 'null' && !asked.has(key)) problems.push(`answers ${key}, a request the agent did not send or one already answered`)
    }
    const found = checkClientLine(version, line, (id) => {
      const answered = asked.get(JSON.stringify(id))
      asked.delete(JSON.stringify(id))
      return answered
    })
    for (const problem of found) problems.push(`${problem}\n    in ${line.slice(0, 400)}`)
  }
  return { sent, methods, problems }
}

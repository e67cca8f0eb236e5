import { describe, expect, it } from 'vitest'
import { calls } from '../../../common/contract'
import { MAX_ELICITATION_ANSWERS } from '../../../common/contract/elicitation'
import { schemaLimits } from '../../../common/elicitation/schema'

/** `count` entries named as every record key here must be (`A0`, `A1`, …: an env name, a header name, a field key). */
const entries = (count: number, value: unknown) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`A${i}`, value]))

const draft = { name: 'A', command: 'a', argsText: '', env: [], secretEnv: [], defaultCwd: '' }
const server = { id: 'a', name: 'A', transport: 'stdio', enabled: true, agents: null, command: 'a' }

/** Every map the renderer can send main, with what one entry looks like and how many main takes. */
const records: { call: keyof typeof calls; max: number; arg: (map: Record<string, unknown>) => unknown; value: unknown }[] = [
  { call: 'saveAgentDefinition', max: 100, arg: (secrets) => ({ draft, secrets }), value: 'v' },
  { call: 'saveAgentDefinition', max: 200, arg: (options) => ({ draft: { ...draft, defaultConfigOptions: options } }), value: true },
  { call: 'validateAgentDefinition', max: 200, arg: (options) => ({ draft: { ...draft, defaultConfigOptions: options } }), value: 'x' },
  { call: 'saveMcpServer', max: 200, arg: (env) => ({ server: { ...server, env } }), value: 'v' },
  { call: 'saveMcpServer', max: 200, arg: (headers) => ({ server: { ...server, headers } }), value: 'v' },
  { call: 'saveMcpServer', max: 100, arg: (secrets) => ({ server, secrets }), value: 'v' },
  { call: 'respondElicitation', max: MAX_ELICITATION_ANSWERS, arg: (content) => ({ elicitationRequestId: 'e', action: 'accept', content }), value: 'v' },
]

describe('the maps a renderer sends are bounded', () => {
  it.each(records.map((r, i) => [i, r] as const))('record %i: at the bound it parses, one over it is refused', (_, record) => {
    const input = calls[record.call].input
    expect(input.safeParse(record.arg(entries(record.max, record.value))).success).toBe(true)
    const over = input.safeParse(record.arg(entries(record.max + 1, record.value)))
    expect(over.success).toBe(false)
    expect(JSON.stringify(over.error?.issues)).toContain(`At most ${record.max} entries`)
  })

  it('takes as many answers as a form may have fields', () => {
    expect(MAX_ELICITATION_ANSWERS).toBe(schemaLimits.maxFields)
  })
})

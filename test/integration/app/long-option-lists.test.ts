/**
 * Long config option lists, as Kilo Code (7.7) sends its model option: 385 models from its gateway catalogue,
 * the person's own provider's models near the end of the list, one of them current. Bosun keeps a bounded number
 * of values, but never drops the current one (the select would read "not listed by the agent"), and a list of a
 * few hundred, as real agents send, is kept whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_CONFIG_VALUES, MAX_MODELS } from '../../../common/session/reducer/metadata'
import { must, servicesPerTest } from '../../support/services'

const startServices = servicesPerTest()
let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** A scenario whose `session/new` lists `count` models: the gateway's, then the person's two, the first current. */
function kiloLikeScenario(count: number): string {
  dir = mkdtempSync(join(tmpdir(), 'bosun-long-options-'))
  const gateway = Array.from({ length: count - 2 }, (_, i) => ({ value: `kilo/vendor/model-${i}`, name: `Kilo Gateway/Model ${i}` }))
  const own = [
    { value: 'fake/fake-model', name: 'Fake API/Fake Model' },
    { value: 'fake/fake-small', name: 'Fake API/Fake Small' },
  ]
  const scenario = {
    session: {
      configOptions: [
        { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'fake/fake-model', options: [...gateway, ...own] },
        { id: 'effort', name: 'Effort', category: 'thought_level', type: 'select', currentValue: 'low', options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }] },
      ],
    },
    prompts: { default: [{ type: 'text', text: 'ok' }] },
  }
  const file = join(dir, 'kilo-like.json')
  writeFileSync(file, JSON.stringify(scenario))
  return file
}

async function modelOptionOf(count: number) {
  const { handlers, workspace } = await startServices([{ id: 'kilo', name: 'Kilo', scenario: kiloLikeScenario(count) }])
  const { sessionId } = must(await handlers.newSession({ agentId: 'kilo', cwd: workspace }))
  const session = must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!
  return session.configOptions.find((o) => o.id === 'model')!
}

/** The same with the older `models` (Gemini CLI's shape, which Qwen Code sends too): `count` models, the current one last. */
async function legacyModelsOf(count: number) {
  dir = mkdtempSync(join(tmpdir(), 'bosun-long-models-'))
  const availableModels = Array.from({ length: count }, (_, i) => ({ modelId: `vendor/model-${i}`, name: `Model ${i}` }))
  const file = join(dir, 'legacy-models.json')
  writeFileSync(file, JSON.stringify({ session: { models: { currentModelId: `vendor/model-${count - 1}`, availableModels } }, prompts: { default: [{ type: 'text', text: 'ok' }] } }))
  const { handlers, workspace } = await startServices([{ id: 'gemini', name: 'Gemini', scenario: file }])
  const { sessionId } = must(await handlers.newSession({ agentId: 'gemini', cwd: workspace }))
  return must(await handlers.getSnapshot(undefined)).sessions.find((s) => s.sessionId === sessionId)!.models!
}

describe('a config option with a long list of values', () => {
  it('385 models, the current one 384th (Kilo Code): all are kept, the current one among them', async () => {
    const model = await modelOptionOf(385)
    expect(model.currentValue).toBe('fake/fake-model')
    expect(model.options).toHaveLength(385)
    expect(model.options.map((o) => o.value)).toEqual(expect.arrayContaining(['fake/fake-model', 'fake/fake-small']))
  })

  it('more than Bosun keeps, the current one past the bound: the list is cut, but the current value stays listed', async () => {
    const model = await modelOptionOf(MAX_CONFIG_VALUES + 100)
    expect(model.options).toHaveLength(MAX_CONFIG_VALUES + 1)
    expect(model.options.at(-1)).toMatchObject({ value: 'fake/fake-model', name: 'Fake API/Fake Model' })
    expect(model.options.map((o) => o.value)).not.toContain('fake/fake-small')
  })

  it('the older models list, longer than Bosun keeps, the current one last: cut, but the current model stays listed', async () => {
    const models = await legacyModelsOf(MAX_MODELS + 50)
    expect(models.currentModelId).toBe(`vendor/model-${MAX_MODELS + 49}`)
    expect(models.availableModels).toHaveLength(MAX_MODELS + 1)
    expect(models.availableModels.at(-1)).toMatchObject({ id: `vendor/model-${MAX_MODELS + 49}`, name: `Model ${MAX_MODELS + 49}` })
  })
})

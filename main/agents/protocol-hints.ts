/**
 * Which ACP version to offer first when a definition has no `protocolVersion`, so that the first start of
 * an agent is also its only one (an agent that answers 1 to a v2 offer is otherwise started a second time,
 * checklist C10b):
 *
 * 1. agents known to speak v1: the presets, the detected agents, registry installs (`presetId`), and their
 *    commands however they were added (`gemini`, `npx … @agentclientprotocol/codex-acp`, or the older
 *    `@zed-industries` packages). The Claude and Codex adapters answer a v2 offer with 2 too since late 2026;
 *    they are offered 1, the surface they were tried with here and their fuller one (load, list, resume, close);
 * 2. the version an earlier start of the same command line settled on (`<home>/protocol-versions.json`),
 *    whichever definition it was (re-added, copied, another name).
 *
 * Anything else is offered 2. A v1 agent that answers 1 runs that first process without Bosun's client
 * capabilities (the host's `onV1AnswerToV2Offer`), and every later start offers 1.
 */
import { join } from 'node:path'
import { z } from 'zod'
import type { ProtocolVersion } from '../acp/types'
import { MapFile } from '../base/map-file'
import { knownAgentForCommand } from './detect'

/** Preset ids of agents that speak ACP v1 (see `main/config/presets.ts`). */
const V1_PRESETS = new Set(['claude', 'codex', 'gemini', 'goose', 'opencode', 'qwen', 'kilo', 'copilot'])
/** npm packages of v1 agents run through npx. */
const V1_PACKAGES = [
  /^@(zed-industries|agentclientprotocol)\/claude-(code|agent)-acp(@.*)?$/,
  /^@(zed-industries|agentclientprotocol)\/codex-acp(@.*)?$/,
  /^@google\/gemini-cli(@.*)?$/,
  /^@qwen-code\/qwen-code(@.*)?$/,
  /^@kilocode\/cli(@.*)?$/,
  /^@github\/copilot(@.*)?$/,
  /^cline(@.*)?$/,
  /^@augmentcode\/auggie(@.*)?$/,
]
/** Programs of v1 agents with no preset (Cline CLI 3 and Auggie answer 1 to a v2 offer). */
const V1_PROGRAMS = new Set(['cline', 'auggie'])
/** A command's program name, without its folder or a Windows `.exe`/`.cmd`. */
const programOf = (command: string) => (command.split(/[\\/]/).pop() ?? command).replace(/\.(exe|cmd)$/i, '')

export interface DefinitionLike {
  command: string
  args: readonly string[]
  presetId?: string | undefined
}

/** 1 when the definition is an agent known to speak v1, else undefined. */
export function knownProtocolVersion(def: DefinitionLike): ProtocolVersion | undefined {
  if (def.presetId && (V1_PRESETS.has(def.presetId) || def.presetId.startsWith('registry:'))) return 1
  if (knownAgentForCommand(def.command) || V1_PROGRAMS.has(programOf(def.command))) return 1
  if (/(^|[\\/])npx(\.cmd)?$/.test(def.command) && def.args.some((a) => V1_PACKAGES.some((p) => p.test(a)))) return 1
  return undefined
}

const MAX_ENTRIES = 500
const commandsSchema = z.record(z.string(), z.union([z.literal(1), z.literal(2)]))

/** The ACP version each command line settled on, remembered across definitions. */
export class ProtocolVersionMemory {
  private readonly file: MapFile
  private entries = new Map<string, ProtocolVersion>()

  constructor(home: string) {
    this.file = new MapFile(join(home, 'protocol-versions.json'), 'commands')
  }

  async load(): Promise<void> {
    const parsed = commandsSchema.safeParse(await this.file.read())
    if (parsed.success) this.entries = new Map(Object.entries(parsed.data).slice(-MAX_ENTRIES))
  }

  get(def: DefinitionLike): ProtocolVersion | undefined {
    return this.entries.get(key(def))
  }

  remember(def: DefinitionLike, version: ProtocolVersion): Promise<void> {
    const k = key(def)
    if (this.entries.get(k) === version) return this.file.settled()
    this.entries.delete(k)
    this.entries.set(k, version)
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    return this.file.write(this.entries)
  }

  /** What to offer first: the definition's own setting, a known v1 agent, or what this command settled on. */
  preferred(def: DefinitionLike & { protocolVersion?: ProtocolVersion | undefined }): ProtocolVersion | undefined {
    return def.protocolVersion ?? knownProtocolVersion(def) ?? this.get(def)
  }
}

const key = (def: DefinitionLike) => JSON.stringify([def.command, ...def.args])

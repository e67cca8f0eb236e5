/**
 * A hostile ACP agent (v1 wire, raw NDJSON, no SDK): one mode per attack of issue 13. It behaves until
 * the first `session/prompt` (or `session/new` for the lifecycle attacks), then attacks, and reports what
 * it saw as JSON lines in the --report file the suite reads (answers received, pids spawned).
 *
 *   node --import tsx test/agents/hostile-agent.ts --mode <mode> --count <n> [--secret-env NAME] [--report FILE]
 *
 * Modes:
 *   permission-flood   n `session/request_permission` at once; ends the turn once every one is answered
 *   elicitation-flood  n URL + n form elicitations at once; same
 *   deep-raw           a tool call whose rawInput is nested n levels (and a 4 MB title), then a normal reply
 *   garbage            n bad lines of every kind (not JSON, batches, scalars, bad ids), then a normal reply
 *   no-read            stops reading stdin and sends n requests whose error answers are large
 *   early-flood        n updates for the session before answering `session/new`
 *   early-big          the same with 64 KiB chunks
 *   hang-new           never answers `session/new`
 *   ignore-cancel      a turn that never ends; `session/cancel` is ignored
 *   request-flood      n requests of a method Bosun does not serve (1 KB params each) as fast as the pipe takes
 *                      them; reports the answers once all are in, then a normal reply
 *   notification-flood n notifications Bosun does not handle (1 KB each), then a normal reply
 *   endless            message chunks of n bytes without end (as fast as the pipe takes them), a tool call
 *                      every 100, until `session/cancel`; then 1,000 more chunks (`after cancel …`), ends the turn
 *                      `cancelled` and reports what it sent before the cancel (`--variant b`: stops writing after b
 *                      bytes and waits for the cancel, the turn still open, so a test's flood ends before any budget)
 *   regex              a form with catastrophic patterns in every field (answered by the test)
 *   echo-secrets       the value of --secret-env, echoed in every way it can think of
 *   grandchildren      spawns sleeping grandchildren (one in its own session via setsid) and reports their pids
 *   big-hello          answers `initialize` with a 2 MB name, title and version, n login methods (one with a 2 MB
 *                      description, a terminal one with 50,000 args, one with a 4 MB `_meta`), then behaves
 *   deep-hello         answers `initialize` with a `_meta` nested n levels in its capabilities and a login method
 *   deep-new-error     refuses `session/new` with `data` nested n levels (`--variant big-message`: a 50 MB message)
 *   huge-session-id    answers `session/new` with a session id of n characters
 *   deep-update        a message chunk, a tool call, a permission request, an unknown request and notification, each
 *                      with something nested n levels; reports the two answers, then a normal reply
 *   deep-prompt-error  refuses the prompt like deep-new-error
 *   fs-read-flood      n `fs/read_text_file` of `--file` at once; reports the answers by kind, then a normal reply
 *   fs-write-accumulate a running edit tool call, then n writes of `--variant` bytes (200 KB) to `--file`, one by one
 *   term-yes           runs `yes` for n ms with `outputByteLimit` as large as JSON allows (`--variant default`: none),
 *                      then kills it and reports how much `terminal/output` gave
 *   term-many          n terminals at once, each printing `--variant` bytes (6 MB) with a 4 MB output limit; once all have
 *                      exited, reports what `terminal/output` retained of each, then a normal reply
 *   perm-patch-flood   n permission requests, each patching a new tool call with 3 MB and withdrawn at once
 *   fs-long-path       n reads and writes of an 8 MB path outside the folder (`--variant deep`: 200,000 segments in it);
 *                      reports the answers by kind, then a normal reply
 *   term-churn         n terminals one after another, each running `true` with `--variant` bytes of arguments (1 MB),
 *                      released at once; reports the answers by kind, then a normal reply
 *   perm-options       a permission request with n options (`--variant dup`: two with one id; `zero`: none)
 *   big-facts          n available commands (2 KB each), 300 config options of 300 values, a 1 MB title and mode id,
 *                      a usage of negative and huge numbers, then a normal reply
 *   odd-session        answers `session/new` with n modes and n models (`--variant options`: n config options instead),
 *                      ids repeated, unknown types, items that are not objects, a current mode and model it does not
 *                      list; at the prompt, 100,000 commands (names repeated), a mode it never listed, then a normal reply
 *   response-tricks    answers to ids never sent, id null, a 1 MB id, object ids, both result and error, no or an old
 *                      `jsonrpc`, a request id reused while the first waits, bad UTF-8, a lone surrogate, NUL, BOM, CRLF
 *   spoof              a right-to-left override, zero-width spaces and ANSI escapes in a diff's path, a written file's
 *                      path and a permission's title and diff
 *   stderr-flood       stderr as fast as the pipe takes it for n ms, then a normal reply
 *   close-stdout       answers the prompt, then closes stdout and lives on, ignoring the end of stdin and SIGTERM
 *   partial-line       at a prompt, writes half a message (no newline) and nothing more, ignoring SIGTERM and the end of
 *                      stdin; reports its pid once the half is written
 *   same-id            answers `session/new` with the session id `--variant` (another agent's); at a prompt, in it: a
 *                      message, a tool call, a read of the path in same-id-target beside the report, and a permission; reports the answers, then a normal reply
 *   close-stdin        answers the prompt, then closes its end of stdin and lives on, writing a message chunk every 20 ms
 *   exit-mid           answers the prompt, sends n updates after the answer and exits (`--variant m`: m requests
 *                      Bosun does not serve before the answer)
 *   sigterm-ignore     behaves, but ignores SIGTERM and the end of stdin; reports its pid
 *   other-session      session ids of its own process (`other-<pid>-<n>`, reported with their folder); at a prompt, names the
 *                      session an earlier process was given: reads secret.txt in its folder, starts a terminal, asks a
 *                      permission and a form; reports the answers, then a normal reply
 *   script             writes the lines of a JSON list of strings (`--file`, else script.json beside the report), `{cwd}`
 *                      and `{session}` filled in; once every request among them is answered, reports the answers (by
 *                      id, its error or result), then a normal reply
 *   early-requests     asks a permission in the session it is making before answering `session/new`; reports the answer
 *                      and says it in the session
 *   wait-flood         starts a terminal running `sleep 600` and sends n `terminal/wait_for_exit` for it as fast as the pipe
 *                      takes them, says `waits sent`; once every one is answered (the person stops the turn, which kills
 *                      the command), reports the answers by kind, then a normal reply
 *   escaped-writer     at a prompt, starts a grandchild outside its process group (setsid) that shares its stdout and
 *                      writes a message chunk for the session every 20 ms for n ms (`from the grandchild <i>`), reports
 *                      the grandchild's pid, answers the prompt and exits; the grandchild reports how many it wrote
 *                      and whether a write failed (the pipe closed by Bosun); `--variant clean-env`: the grandchild's
 *                      environment is emptied
 *   tool-update-flood  one tool call, then n tool_call_updates each replacing its content with one block more (up to
 *                      `--variant`, default 500, then the newest that many), then completed and a normal reply
 *   well-behaved       answers prompts with one message (the control)
 *
 * `--file` is a path, or a name in the session's folder.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, closeSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

type Json = Record<string, unknown>

const args = process.argv.slice(2)
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const mode = arg('--mode') ?? 'well-behaved'
const count = Number(arg('--count') ?? '100')
const secretName = arg('--secret-env')
const reportFile = arg('--report')
const variant = arg('--variant') ?? ''
let sessionCwd = ''
const fileArgRaw = arg('--file') ?? ''
const fileArgOf = () => (fileArgRaw.startsWith("/") ? fileArgRaw : `${sessionCwd}/${fileArgRaw}`)
const SESSION = 'hostile-1'
/** Sessions made so far: the first is {@link SESSION}, later ones `hostile-2`, `hostile-3`… (the attacks use the first). */
let sessions = 0
/** `script`: sees every answer while the script runs. */
let scriptSpy: ((message: Json) => void) | undefined
/** `endless`: set by `session/cancel`. */
let cancelled = false
/** `endless`: resolved by `session/cancel`. */
let cancelSeen: () => void = () => {}
const cancelReceived = new Promise<void>((resolve) => (cancelSeen = resolve))

let reading = true
let buffered = ''
let nextId = 1
/** Our requests waiting for Bosun's answer. */
const waiting = new Map<number, (reply: Json) => void>()
/** What the agent saw, for the suite: a JSON line in the --report file (stderr may be redacted or cut). */
const report = (fields: Json) => {
  if (reportFile) appendFileSync(reportFile, JSON.stringify({ mode, ...fields }) + '\n')
}

function send(message: Json): void {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n')
}
function raw(line: string): void {
  process.stdout.write(line + '\n')
}
function update(update: Json, sessionId = SESSION): void {
  send({ method: 'session/update', params: { sessionId, update } })
}
function request(method: string, params: unknown): Promise<Json> {
  const id = nextId++
  send({ id, method, params })
  return new Promise((resolve) => waiting.set(id, resolve))
}
/** Writes that respect the pipe (so a flood is really sent, not only queued in this process). */
async function drained(): Promise<void> {
  if (process.stdout.writableNeedDrain) await new Promise((resolve) => process.stdout.once('drain', resolve))
}

process.stdin.on('data', (chunk: Buffer) => {
  buffered += chunk.toString('utf8')
  let newline: number
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline)
    buffered = buffered.slice(newline + 1)
    if (line.trim()) void handle(JSON.parse(line) as Json)
  }
})
process.stdin.on('end', () => {
  if (mode !== 'sigterm-ignore' && mode !== 'close-stdout') process.exit(0)
})
// `sigterm-ignore`: a well-behaved turn, but SIGTERM and the end of stdin are ignored (only SIGKILL ends it).
if (mode === 'sigterm-ignore' || mode === 'close-stdout') {
  report({ pid: process.pid })
  process.on('SIGTERM', () => report({ sigterm: Date.now() }))
}

async function handle(message: Json): Promise<void> {
  if (message.method === undefined) {
    scriptSpy?.(message)
    const resolve = waiting.get(message.id as number)
    waiting.delete(message.id as number)
    resolve?.(message)
    return
  }
  const { id, method } = message
  const params = (message.params ?? {}) as Json
  switch (method) {
    case 'initialize':
      if (mode === 'big-hello') {
        const big = (c: string) => c.repeat(2 * 1024 * 1024)
        const authMethods: Json[] = [
          { id: 'long-description', name: 'Long', description: big('d') },
          { id: 'many-args', name: 'Many args', type: 'terminal', args: Array.from({ length: 50_000 }, (_, i) => `--a${i}`) },
          { id: 'big-meta', name: 'Big meta', _meta: { blob: 'm'.repeat(4 * 1024 * 1024) } },
        ]
        for (let i = 0; i < count; i++) authMethods.push({ id: `m${i}`, name: `Method ${i}`, description: 'x'.repeat(1024) })
        send({ id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods, agentInfo: { name: big('n'), title: big('t'), version: big('v') } } })
        return
      }
      if (mode === 'deep-hello') {
        const deep = '{"d":'.repeat(count) + '1' + '}'.repeat(count)
        raw(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false,"_meta":${deep}},"authMethods":[{"id":"a","name":"A","_meta":${deep}}],"agentInfo":{"name":"deep","version":"1"}}}`)
        return
      }
      send({ id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [], agentInfo: { name: 'hostile', version: '1' } } })
      return
    case 'session/new':
      sessionCwd = String(params.cwd ?? '')
      if (mode === 'other-session') {
        // Ids of this process only; the report says which, and where, for a later process of the agent to name.
        const given = `other-${process.pid}-${++sessions}`
        report({ gave: given, cwd: sessionCwd, pid: process.pid })
        send({ id, result: { sessionId: given } })
        return
      }
      if (mode === 'same-id') {
        // The id another agent gave its session (`--variant`), as this agent's own.
        send({ id, result: { sessionId: variant } })
        return
      }
      if (mode === 'early-requests') {
        // Asks for a permission in the session it is making before it answers, and answers at once.
        const asked = request('session/request_permission', {
          sessionId: SESSION,
          toolCall: { toolCallId: 'early-perm', title: 'Early question', kind: 'execute' },
          options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }],
        })
        void asked.then((answer) => {
          report({ early: answer.error ?? answer.result })
          say(`early answer ${JSON.stringify(answer.error ?? answer.result)}`)
        })
        send({ id, result: { sessionId: ++sessions === 1 ? SESSION : `hostile-${sessions}` } })
        return
      }
      if (mode === 'deep-new-error') {
        const deep = '{"d":'.repeat(count) + '1' + '}'.repeat(count)
        const message = variant === 'big-message' ? 'm'.repeat(50 * 1024 * 1024) : 'refused'
        raw(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32000,"message":"${message}","data":${deep}}}`)
        return
      }
      if (mode === 'deep-results') {
        // The answer itself nested n levels: in its _meta, a mode's _meta and a config option's value.
        const deep = '['.repeat(count) + '1' + ']'.repeat(count)
        sessions++
        raw(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"sessionId":"${SESSION}","_meta":${deep},"modes":{"currentModeId":"a","availableModes":[{"id":"a","name":"A","_meta":${deep}}]},"configOptions":[{"id":"o","name":"O","type":"select","currentValue":${deep},"options":[{"value":"v","name":"V","_meta":${deep}}]}]}}`)
        return
      }
      if (mode === 'huge-session-id') {
        send({ id, result: { sessionId: 's'.repeat(count) } })
        return
      }
      if (mode === 'hang-new') return
      if (mode === 'odd-session') {
        const odd: unknown[] = [42, null, 'text', { id: 7 }, { id: 'm'.repeat(1024 * 1024), name: 'Huge' }]
        const availableModes: unknown[] = [...odd, ...Array.from({ length: count }, (_, i) => ({ id: `mode${i % 100}`, name: `Mode ${i}`, _meta: { n: i } }))]
        const availableModels: unknown[] = [...odd, ...Array.from({ length: count }, (_, i) => ({ modelId: `model${i % 50}`, name: `Model ${i}` }))]
        const kinds = ['select', 'boolean', 'slider', 'x'.repeat(10_000)]
        const configOptions: unknown[] = [
          ...odd,
          ...Array.from({ length: count }, (_, i) => ({
            id: `opt${i % 10}`,
            name: `Option ${i}`,
            type: kinds[i % kinds.length],
            category: 'other',
            currentValue: i % 2 ? `v${i % 5}` : { nested: [i] },
            options: i % 3 ? Array.from({ length: 40 }, (_, j) => (j % 9 === 0 ? j : { value: `v${j % 5}`, name: `Value ${j}` })) : 'not a list',
          })),
        ]
        const facts = variant === 'options' ? { configOptions } : { modes: { currentModeId: 'never-listed', availableModes }, models: { currentModelId: 'model-unknown', availableModels } }
        send({ id, result: { sessionId: SESSION, ...facts } })
        sessions++
        return
      }
      if (mode === 'early-flood' || mode === 'early-big') {
        // early-big: 64 KiB chunks, under the count bound but far over the size bound.
        const pad = mode === 'early-big' ? 'e'.repeat(64 * 1024) : ''
        for (let i = 0; i < count; i++) {
          update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `early ${i} ${pad}` } })
          if (i % 1000 === 0 || pad) await drained()
        }
      }
      if (mode === 'grandchildren') spawnGrandchildren()
      if (mode === 'echo-secrets') {
        // Split across two chunks that arrive before the session exists (Bosun's early buffer).
        const secret = (secretName && process.env[secretName]) || ''
        const half = Math.floor(secret.length / 2)
        update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `early key ${secret.slice(0, half)}` } })
        update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${secret.slice(half)} early end` } })
      }
      send({ id, result: { sessionId: ++sessions === 1 ? SESSION : `hostile-${sessions}` } })
      return
    case 'session/prompt':
      await prompt(id, params)
      return
    case 'session/cancel':
      cancelled = true
      cancelSeen()
      return
    default:
      if (id !== undefined) send({ id, error: { code: -32601, message: `Method not found: ${String(method)}` } })
  }
}

function endTurn(id: unknown, stopReason = 'end_turn'): void {
  send({ id, result: { stopReason } })
}

function say(text: string): void {
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })
}

async function prompt(id: unknown, _params: Json): Promise<void> {
  switch (mode) {
    case 'permission-flood': {
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          request('session/request_permission', {
            sessionId: SESSION,
            toolCall: { toolCallId: `flood-${i}`, title: `Flood ${i}`, kind: 'execute', rawInput: { i } },
            options: [
              { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
              { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
            ],
          }),
        ),
      )
      const outcomes = answers.map((a) => ((a.result as Json | undefined)?.outcome as Json | undefined)?.outcome ?? 'error')
      report({ answered: answers.length, cancelled: outcomes.filter((o) => o === 'cancelled').length, selected: outcomes.filter((o) => o === 'selected').length })
      say(`answered ${answers.length}`)
      endTurn(id)
      return
    }
    case 'elicitation-flood': {
      const urls = Array.from({ length: count }, (_, i) =>
        request('elicitation/create', { sessionId: SESSION, mode: 'url', message: `Open ${i}`, url: `https://example.com/${i}`, elicitationId: `e-${i}` }),
      )
      const forms = Array.from({ length: count }, (_, i) =>
        request('elicitation/create', { sessionId: SESSION, mode: 'form', message: `Form ${i}`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }),
      )
      const answers = await Promise.all([...urls, ...forms])
      report({ answered: answers.length, actions: countBy(answers.map((a) => String((a.result as Json | undefined)?.action ?? 'error'))) })
      say(`answered ${answers.length}`)
      endTurn(id)
      return
    }
    case 'deep-raw': {
      // Written as text: the agent's own JSON.stringify would overflow its stack first.
      const deep = '{"d":'.repeat(count) + '"bottom"' + '}'.repeat(count)
      const deepArray = '['.repeat(count) + '1' + ']'.repeat(count)
      const title = 'x'.repeat(4 * 1024 * 1024)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"tool_call","toolCallId":"deep","title":"${title}","kind":"execute","status":"in_progress","rawInput":${deep}}}}`)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"tool_call_update","toolCallId":"deep","status":"completed","rawOutput":${deepArray}}}}`)
      update({ sessionUpdate: 'plan', entries: Array.from({ length: 50_000 }, (_, i) => ({ content: `step ${i}`, priority: 'low', status: 'pending' })) })
      say('after deep')
      endTurn(id)
      return
    }
    case 'garbage': {
      const kinds = ['not json at all', '{"unterminated": ', '[]', '[{"jsonrpc":"2.0","method":"x"}]', '42', '"string"', 'null', '{"jsonrpc":"2.0","id":{},"method":"x"}', '{"jsonrpc":"2.0","id":99999,"result":{}}', '\u001b[31m{"broken"', '{"jsonrpc":"2.0"}']
      for (let i = 0; i < count; i++) {
        raw(kinds[i % kinds.length]!)
        if (i % 500 === 0) await drained()
      }
      say('after garbage')
      endTurn(id)
      return
    }
    case 'no-read': {
      // Stop reading: every error answer Bosun writes for these stays in its queue.
      reading = false
      process.stdin.pause()
      process.stderr.write('no-read: not reading stdin any more\n')
      const method = `x/${'m'.repeat(60_000)}`
      for (let i = 0; i < count; i++) {
        send({ id: 100_000 + i, method, params: {} })
        await drained()
      }
      process.stderr.write('no-read: sent everything, now sleeping\n')
      setInterval(() => undefined, 1_000_000)
      return
    }
    case 'ignore-cancel':
      say('working forever')
      return
    case 'request-flood': {
      const pad = 'r'.repeat(1024)
      const answers: Promise<Json>[] = []
      for (let i = 0; i < count; i++) {
        answers.push(request('_hostile/ask', { i, pad }))
        if (i % 64 === 0) await drained()
      }
      const codes = (await Promise.all(answers)).map((a) => String((a.error as Json | undefined)?.code ?? 'result'))
      report({ answered: codes.length, codes: countBy(codes) })
      say(`after ${count} requests`)
      endTurn(id)
      return
    }
    case 'notification-flood': {
      const pad = 'n'.repeat(1024)
      for (let i = 0; i < count; i++) {
        send({ method: '_hostile/tell', params: { i, pad } })
        if (i % 64 === 0) await drained()
      }
      say(`after ${count} notifications`)
      endTurn(id)
      return
    }
    case 'endless': {
      const text = 'endless '.repeat(Math.max(1, Math.ceil(count / 8))).slice(0, count)
      let sent = 0
      let bytes = 0
      const most = variant === '' ? Infinity : Number(variant)
      while (!cancelled && bytes < most) {
        if (sent % 100 === 99) update({ sessionUpdate: 'tool_call', toolCallId: `endless-${sent}`, title: `Step ${sent}`, kind: 'other', status: 'completed' })
        else say(text)
        sent++
        bytes += text.length
        // Give stdin a turn now and then: the cancel must be read while the flood goes on.
        if (sent % 64 === 0) await new Promise((resolve) => setImmediate(resolve))
        await drained()
      }
      await cancelReceived
      // Like an agent that flushes what it had queued: more output after the cancel, before the turn ends.
      for (let i = 0; i < 1_000; i++) {
        say(`after cancel ${text}`)
        await drained()
      }
      report({ sent, bytes })
      endTurn(id, 'cancelled')
      return
    }
    case 'regex': {
      const properties: Json = {}
      for (let i = 0; i < count; i++) properties[`f${i}`] = { type: 'string', title: `Field ${i}`, pattern: ['^(a+)+$', '(a|a)*c', '(x+x+)+y', '^(\\w+\\s?)*$'][i % 4] }
      const answer = await request('elicitation/create', { sessionId: SESSION, mode: 'form', message: 'Catastrophic patterns', requestedSchema: { type: 'object', properties } })
      report({ answered: 1, action: (answer.result as Json | undefined)?.action ?? 'error' })
      endTurn(id)
      return
    }
    case 'deep-update': {
      const deep = '{"d":'.repeat(count) + '"bottom"' + '}'.repeat(count)
      const deepArray = '['.repeat(count) + '1' + ']'.repeat(count)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"deep content","_meta":${deep}}}}}`)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"tool_call","toolCallId":"deep","title":"t","kind":"execute","status":"in_progress","rawInput":${deep},"content":${deepArray}}}}`)
      // A request with deep params (a permission) and one Bosun does not serve.
      const pid = 900_001
      const permission = new Promise<Json>((resolve) => waiting.set(pid, resolve))
      raw(`{"jsonrpc":"2.0","id":${pid},"method":"session/request_permission","params":{"sessionId":"${SESSION}","toolCall":{"toolCallId":"deep","rawInput":${deep}},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"}],"_meta":${deep}}}`)
      const uid = 900_002
      const unknown = new Promise<Json>((resolve) => waiting.set(uid, resolve))
      raw(`{"jsonrpc":"2.0","id":${uid},"method":"_x/deep","params":${deep}}`)
      // Notification with deep params Bosun does not handle.
      raw(`{"jsonrpc":"2.0","method":"_x/deep-note","params":${deep}}`)
      const answers = await Promise.all([permission, unknown])
      report({ answers: answers.map((a) => (a.error ? `error ${(a.error as Json).code}` : 'result')) })
      say('after deep update')
      endTurn(id)
      return
    }
    case 'deep-results': {
      // A tool call and a message whose every open field is nested n levels, then the answer's _meta and usage too.
      const deep = '['.repeat(count) + '1' + ']'.repeat(count)
      const object = '{"d":'.repeat(count) + '1' + '}'.repeat(count)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"tool_call","toolCallId":"deep","title":"t","kind":"execute","status":"in_progress","locations":[{"path":"${sessionCwd}/a","_meta":${deep}}],"rawInput":${object},"_meta":${deep}}}}`)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"tool_call_update","toolCallId":"deep","status":"completed","content":[{"type":"content","content":{"type":"text","text":"x","_meta":${deep}}}],"rawOutput":${deep},"_meta":${object}}}}`)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"plan","entries":[{"content":"p","priority":"low","status":"pending","_meta":${deep}}]}}}`)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"usage_update","used":1,"size":2,"_meta":${deep}}}}`)
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"c","description":"d","input":${object},"_meta":${deep}}]}}}`)
      say('after deep results')
      raw(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"stopReason":"end_turn","_meta":${deep},"usage":${object}}}`)
      return
    }
    case 'deep-prompt-error': {
      const deep = '{"d":'.repeat(count) + '1' + '}'.repeat(count)
      const message = variant === 'big-message' ? 'm'.repeat(50 * 1024 * 1024) : 'refused'
      raw(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32000,"message":"${message}","data":${deep}}}`)
      return
    }
    case 'fs-read-flood': {
      const answers = await Promise.all(Array.from({ length: count }, () => request('fs/read_text_file', { sessionId: SESSION, path: fileArgOf() })))
      const kinds = countBy(answers.map((a) => (a.error ? `error ${(a.error as Json).code} ${String((a.error as Json).message).slice(0, 80)}` : `ok ${String((a.result as Json).content).length}`)))
      report({ answered: answers.length, kinds })
      say(`read ${answers.length}`)
      endTurn(id)
      return
    }
    case 'fs-write-accumulate': {
      // A running edit tool call, then many writes: each write's diff is appended to it.
      update({ sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit', kind: 'edit', status: 'in_progress' })
      const size = Number(variant || 200 * 1024)
      let errors = 0
      for (let i = 0; i < count; i++) {
        const answer = await request('fs/write_text_file', { sessionId: SESSION, path: fileArgOf(), content: `${i} `.padEnd(size, String.fromCharCode(97 + (i % 26))) })
        if (answer.error) errors++
      }
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' })
      report({ written: count, errors })
      say('after writes')
      endTurn(id)
      return
    }
    case 'term-yes': {
      const limit = variant === 'default' ? undefined : Number.MAX_SAFE_INTEGER
      const made = await request('terminal/create', { sessionId: SESSION, command: 'yes', args: ['yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'], ...(limit ? { outputByteLimit: limit } : {}) })
      const terminalId = (made.result as Json | undefined)?.terminalId
      report({ created: terminalId ?? made.error })
      // Shown on a tool call's card, as agents do.
      update({ sessionUpdate: 'tool_call', toolCallId: 'yes', title: 'Run yes', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] })
      // Let it run for `count` ms without asking for output, then kill and release it.
      await new Promise((resolve) => setTimeout(resolve, count))
      await request('terminal/kill', { sessionId: SESSION, terminalId })
      const out = await request('terminal/output', { sessionId: SESSION, terminalId })
      report({ outputChars: String(((out.result as Json | undefined)?.output as string | undefined)?.length ?? -1) })
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'yes', status: 'completed' })
      await request('terminal/release', { sessionId: SESSION, terminalId })
      say('after yes')
      endTurn(id)
      return
    }
    case 'term-many': {
      // n terminals at once, each printing `--variant` bytes (6 MB) with the largest output limit Bosun takes; once all
      // have exited, reports what `terminal/output` retained of each (characters, truncated), then a normal reply.
      const bytes = Number(variant || 6 * 1024 * 1024)
      const made = await Promise.all(
        Array.from({ length: count }, () => request('terminal/create', { sessionId: SESSION, command: 'sh', args: ['-c', `head -c ${bytes} /dev/zero | tr '\\0' y`], outputByteLimit: 4 * 1024 * 1024 })),
      )
      const ids = made.map((m) => (m.result as Json | undefined)?.terminalId)
      await Promise.all(ids.map((terminalId) => request('terminal/wait_for_exit', { sessionId: SESSION, terminalId })))
      const outputs = await Promise.all(ids.map((terminalId) => request('terminal/output', { sessionId: SESSION, terminalId })))
      report({ retained: outputs.map((o) => ({ chars: String((o.result as Json | undefined)?.output ?? '').length, truncated: (o.result as Json | undefined)?.truncated ?? null, exit: (o.result as Json | undefined)?.exitStatus ?? o.error ?? null })) })
      for (const terminalId of ids) await request('terminal/release', { sessionId: SESSION, terminalId })
      say('after terminals')
      endTurn(id)
      return
    }
    case 'perm-patch-flood': {
      // Each request patches a new tool call with ~3 MB, then is withdrawn at once ($/cancel_request).
      const blob = (c: string) => c.repeat(1024 * 1024 - 64)
      for (let i = 0; i < count; i++) {
        const rid = 800_000 + i
        const answer = new Promise<Json>((resolve) => waiting.set(rid, resolve))
        send({ id: rid, method: 'session/request_permission', params: { sessionId: SESSION, toolCall: { toolCallId: `patch-${i}`, title: `Patch ${i}`, kind: 'execute', rawInput: { a: blob('a'), b: blob('b'), c: blob('c') } }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } })
        send({ method: '$/cancel_request', params: { requestId: rid } })
        await answer
        await drained()
      }
      report({ sent: count })
      say('after patches')
      endTurn(id)
      return
    }
    case 'perm-options': {
      const n = count
      const options =
        variant === 'zero' ? [] :
        variant === 'dup' ? [{ optionId: 'x', name: 'Allow', kind: 'allow_once' }, { optionId: 'x', name: 'Reject', kind: 'reject_once' }] :
        Array.from({ length: n }, (_, i) => ({ optionId: `o${i}`, name: `Option ${i}`, kind: i % 2 ? 'allow_once' : 'reject_once' }))
      const answer = await request('session/request_permission', { sessionId: SESSION, toolCall: { toolCallId: 'opts', title: 'Options', kind: 'execute' }, options })
      report({ answer })
      say('after options')
      endTurn(id)
      return
    }
    case 'odd-session': {
      update({ sessionUpdate: 'available_commands_update', availableCommands: Array.from({ length: 100_000 }, (_, i) => ({ name: `c${i % 2_000}`, description: `Command ${i}` })) })
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'no-such-mode' })
      say('after odd facts')
      endTurn(id)
      return
    }
    case 'big-facts': {
      const pad = 'd'.repeat(1024)
      update({ sessionUpdate: 'available_commands_update', availableCommands: Array.from({ length: count }, (_, i) => ({ name: `cmd${i}`, description: `${i} ${pad}`, input: { hint: pad } })) })
      const short = 'v'.repeat(100)
      update({ sessionUpdate: 'config_option_update', configOptions: Array.from({ length: 300 }, (_, i) => ({ id: `opt${i}`, name: `Option ${i} ${pad}`, type: 'select', currentValue: 'v0', options: Array.from({ length: 300 }, (_, j) => ({ value: `v${j}`, name: `Value ${j} ${short}` })) })) })
      update({ sessionUpdate: 'session_info_update', title: 't'.repeat(1024 * 1024) })
      update({ sessionUpdate: 'usage_update', used: -5, size: 1e308, cost: { amount: -1e308, currency: 'x'.repeat(100000) } })
      update({ sessionUpdate: 'current_mode_update', currentModeId: 'm'.repeat(1024 * 1024) })
      say('after facts')
      endTurn(id)
      return
    }
    case 'response-tricks': {
      // Answers to ids never sent, duplicates, both result and error, id null, huge ids, jsonrpc 1.0 / missing.
      raw('{"jsonrpc":"2.0","id":424242,"result":{}}')
      raw('{"jsonrpc":"2.0","id":null,"result":{"x":1}}')
      raw('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"null id error"}}')
      raw(`{"jsonrpc":"2.0","id":"${'i'.repeat(1_000_000)}","result":{}}`)
      raw('{"jsonrpc":"2.0","id":{"a":1},"result":{}}')
      raw('{"jsonrpc":"2.0","id":[1],"result":{}}')
      raw('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"both"}}')
      raw(`{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"v1.0 "}}}}`)
      raw(`{"method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"no-version "}}}}`)
      // A request id reused while the first one waits (a permission the person has not answered).
      const rid = 777
      const first = new Promise<Json>((resolve) => waiting.set(rid, resolve))
      const perm = { sessionId: SESSION, toolCall: { toolCallId: 'dup', title: 'Dup', kind: 'execute' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] }
      send({ id: rid, method: 'session/request_permission', params: perm })
      const seen: Json[] = []
      const prev = waiting.get(rid)!
      waiting.set(rid, (reply) => {
        seen.push(reply)
        if (seen.length === 1) waiting.set(rid, (again) => { seen.push(again); prev(again) })
        else prev(reply)
      })
      send({ id: rid, method: 'session/request_permission', params: perm })
      // Invalid UTF-8, lone surrogates, NUL, BOM, CRLF.
      process.stdout.write(Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"bad `), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' utf8 "}}}}\n')]))
      raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"lone \\ud800 surrogate \\u0000 nul "}}}}`)
      raw(`\ufeff{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"bom "}}}}`)
      process.stdout.write(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${SESSION}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"crlf "}}}}\r\n`)
      await first
      report({ dupAnswers: seen.map((r) => (r.error ? `error ${(r.error as Json).code}` : 'result')) })
      say('after tricks')
      endTurn(id)
      return
    }
    case 'spoof': {
      // What the person reads, spoofed: a right-to-left override, zero-width spaces and ANSI escapes in paths and titles.
      const rlo = '\u202e'
      const spoofed = `${sessionCwd}/notes-${rlo}txt.sh`
      update({ sessionUpdate: 'tool_call', toolCallId: 'edit-spoof', title: `Edit notes\u001b[31m red \u200b`, kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: spoofed, oldText: 'a\n', newText: 'b\n' }] })
      const written = await request('fs/write_text_file', { sessionId: SESSION, path: `${sessionCwd}/written-${rlo}txt.sh`, content: 'echo hi\n' })
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-spoof', status: 'completed' })
      const answer = await request('session/request_permission', {
        sessionId: SESSION,
        toolCall: { toolCallId: 'perm-spoof', title: `Write ${rlo}txt.sh`, kind: 'edit', content: [{ type: 'diff', path: `${sessionCwd}/perm-${rlo}txt.sh`, oldText: null, newText: 'rm -rf ~\n' }], locations: [{ path: `${sessionCwd}/perm-${rlo}txt.sh` }] },
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }],
      })
      report({ written: written.error ?? 'ok', answer: answer.result ?? answer.error })
      say('after spoof')
      endTurn(id)
      return
    }
    case 'fs-long-path': {
      // n reads and writes of long paths: outside the folder, one segment of `--variant` characters (default 8 MB); or
      // (`--variant deep`) inside it, 200,000 missing segments.
      const kinds: string[] = []
      for (let i = 0; i < count; i++) {
        const path = variant === 'deep' ? `${sessionCwd}/${'x/'.repeat(200_000)}${i}` : `/etc/${'x'.repeat(Number(variant || 8 * 1024 * 1024))}${i}`
        const answer = await request(i % 2 ? 'fs/write_text_file' : 'fs/read_text_file', { sessionId: SESSION, path, content: 'x' })
        kinds.push(answer.error ? `error ${(answer.error as Json).code}` : 'ok')
      }
      report({ answered: kinds.length, kinds: countBy(kinds) })
      say('after long paths')
      endTurn(id)
      return
    }
    case 'term-churn': {
      // n terminals, one after another, each running `true` with `--variant` bytes of arguments (default 1 MB), released at once.
      const size = Number(variant || 1024 * 1024)
      const args = Array.from({ length: Math.ceil(size / 100_000) }, () => 'a'.repeat(100_000))
      const kinds: string[] = []
      for (let i = 0; i < count; i++) {
        const made = await request('terminal/create', { sessionId: SESSION, command: 'true', args })
        const terminalId = (made.result as Json | undefined)?.terminalId
        kinds.push(terminalId ? 'ok' : `error ${String((made.error as Json).message).slice(0, 60)}`)
        if (terminalId) await request('terminal/release', { sessionId: SESSION, terminalId })
      }
      report({ answered: kinds.length, kinds: countBy(kinds) })
      say('after churn')
      endTurn(id)
      return
    }
    case 'stderr-flood': {
      // stderr as fast as the pipe takes it for n ms (a line of 64 KB at a time), then a normal reply.
      const line = 'e'.repeat(64 * 1024) + '\n'
      const until = Date.now() + count
      let bytes = 0
      while (Date.now() < until) {
        if (!process.stderr.write(line)) await new Promise((resolve) => process.stderr.once('drain', resolve))
        bytes += line.length
      }
      report({ stderrBytes: bytes })
      say(`after ${bytes} bytes of stderr`)
      endTurn(id)
      return
    }
    case 'close-stdout': {
      // Answers the prompt, then closes stdout and lives on (ignoring SIGTERM, never reading stdin's end).
      say('closing stdout')
      endTurn(id)
      process.stdin.removeAllListeners('end')
      await new Promise((resolve) => setTimeout(resolve, 50))
      process.stdout.end()
      setInterval(() => undefined, 1_000_000)
      return
    }
    case 'same-id': {
      // In its session, which has the id another agent's has: a message, a tool call, a read of a file in the other's
      // folder (the path in same-id-target beside the report) and a question; reports the answers, then a normal reply.
      const sessionId = variant
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'SAME-ID message' } }, sessionId)
      update({ sessionUpdate: 'tool_call', toolCallId: 'same-id-call', title: 'SAME-ID call', kind: 'execute', status: 'pending' }, sessionId)
      const options = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }]
      const asks: [string, unknown][] = [
        ['fs/read_text_file', { sessionId, path: readFileSync(join(dirname(reportFile!), 'same-id-target'), 'utf8') }],
        ['session/request_permission', { sessionId, toolCall: { toolCallId: 'same-id-call', title: 'SAME-ID question', kind: 'execute' }, options }],
      ]
      const answers = await Promise.all(asks.map(([method, p]) => request(method, p)))
      report({ answers: Object.fromEntries(answers.map((a, i) => [asks[i]![0], a.error ? (a.error as Json).code : a.result])) })
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'after same id' } }, sessionId)
      endTurn(id)
      return
    }
    case 'close-stdin': {
      // Answers the prompt, then closes its end of stdin (Bosun's writes fail) and writes on: a message every 20 ms.
      say('closing stdin')
      endTurn(id)
      process.stdin.removeAllListeners('end')
      await new Promise((resolve) => setTimeout(resolve, 20))
      process.stdin.destroy()
      // (Node leaves the descriptor of its stdio open: the pipe's read end is closed here.)
      try {
        closeSync(0)
      } catch {
        // Closed already.
      }
      let i = 0
      setInterval(() => say(` still here ${i++}`), 20)
      return
    }
    case 'partial-line': {
      // Half a message on stdout, then nothing more (the line is never ended); SIGTERM and the end of stdin are ignored.
      say('before the half line')
      process.stdin.removeAllListeners('end')
      process.on('SIGTERM', () => report({ sigterm: Date.now() }))
      const half = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'HALF-LINE-TEXT' } } } }).slice(0, 130)
      process.stdout.write(half, () => report({ pid: process.pid, partial: half.length }))
      setInterval(() => undefined, 1_000_000)
      return
    }
    case 'exit-mid': {
      // The prompt's answer, then updates, then exit at once (the updates after the answer may be read or not).
      say('before the answer')
      // `--variant <m>`: m requests Bosun does not serve first, which its queue takes one per turn before the answer.
      for (let i = 0; i < Number(variant || 0); i++) send({ id: 900_000 + i, method: '_hostile/ask', params: {} })
      endTurn(id)
      for (let i = 0; i < count; i++) say(` after the answer ${i}`)
      process.stdout.write('', () => process.exit(3))
      return
    }
    case 'other-session': {
      // Names a session an earlier process of this agent was given (from the report): its folder, a command, questions.
      const earlier = readFileSync(reportFile!, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json).find((r) => r.gave && r.pid !== process.pid)
      const target = String(earlier?.gave)
      const options = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }]
      const asks: [string, unknown][] = [
        ['fs/read_text_file', { sessionId: target, path: `${String(earlier?.cwd)}/secret.txt` }],
        ['terminal/create', { sessionId: target, command: 'true' }],
        ['session/request_permission', { sessionId: target, toolCall: { toolCallId: 'other', title: 'Other', kind: 'execute' }, options }],
        ['elicitation/create', { sessionId: target, mode: 'form', message: 'Other?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }],
      ]
      const answers = await Promise.all(asks.map(([method, p]) => request(method, p)))
      report({ target, answers: Object.fromEntries(answers.map((a, i) => [asks[i]![0], a.error ? (a.error as Json).code : a.result])) })
      say('after other session')
      endTurn(id)
      return
    }
    case 'script': {
      // Lines from a JSON list ({cwd} and {session} filled in); reports every answer once all requests have one.
      const seen: Json[] = []
      const lines = JSON.parse(readFileSync(fileArgRaw || join(dirname(reportFile!), 'script.json'), 'utf8')) as string[]
      const filled = lines.map((line) => line.replaceAll('{cwd}', sessionCwd).replaceAll('{session}', SESSION))
      // Requests among them (lines with a method and an id): each is answered once, in any order.
      const asked = filled.filter((line) => {
        try {
          const message = JSON.parse(line) as Json
          return typeof message.method === 'string' && message.id !== undefined
        } catch {
          return false
        }
      }).length
      let allAnswered: () => void = () => undefined
      const answered = new Promise<void>((resolve) => (allAnswered = resolve))
      scriptSpy = (message: Json) => {
        seen.push({ id: message.id ?? null, ...(message.error ? { error: message.error } : { result: message.result }) })
        if (seen.length >= asked) allAnswered()
      }
      for (const line of filled) raw(line)
      if (asked > 0) await answered
      scriptSpy = undefined
      report({ seen })
      say('after script')
      endTurn(id)
      return
    }
    case 'tool-update-flood': {
      // One tool call, then n tool_call_updates: each replaces its content with one more block than the last (up to
      // `--variant`, default 500; then the newest that many), a text of 200 characters each, and a growing rawOutput.
      const most = Number(variant || 500)
      update({ sessionUpdate: 'tool_call', toolCallId: 'grow', title: 'Growing', kind: 'execute', status: 'in_progress' })
      const block = (i: number) => ({ type: 'content', content: { type: 'text', text: `${i} `.padEnd(200, 'g') } })
      for (let i = 0; i < count; i++) {
        const first = Math.max(0, i + 1 - most)
        const content = Array.from({ length: i + 1 - first }, (_, k) => block(first + k))
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'grow', content, rawOutput: { done: i } })
        if (i % 16 === 0) await drained()
      }
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'grow', status: 'completed' })
      report({ sent: count })
      say('after growth')
      endTurn(id)
      return
    }
    case 'wait-flood': {
      const made = await request('terminal/create', { sessionId: SESSION, command: 'sleep', args: ['600'] })
      const terminalId = (made.result as Json | undefined)?.terminalId
      const waits: Promise<Json>[] = []
      for (let i = 0; i < count; i++) {
        waits.push(request('terminal/wait_for_exit', { sessionId: SESSION, terminalId }))
        await drained()
      }
      say('waits sent')
      const answers = await Promise.all(waits)
      report({ waits: countBy(answers.map((a) => (a.error ? String((a.error as Json).code) : 'ok'))) })
      await request('terminal/release', { sessionId: SESSION, terminalId })
      say('after waits')
      endTurn(id)
      return
    }
    case 'escaped-writer': {
      const template = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: SESSION, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'from the grandchild @' } } } })
      const script = `
        const { appendFileSync } = require('node:fs')
        const line = (i) => ${JSON.stringify(template)}.replace('@', String(i))
        const report = (fields) => appendFileSync(${JSON.stringify(reportFile ?? '/dev/null')}, JSON.stringify({ mode: 'escaped-writer', ...fields }) + '\\n')
        let i = 0
        const end = (closed) => { report({ grandchildWrote: i, pipeClosed: closed }); process.exit(0) }
        process.stdout.on('error', () => end(true))
        const timer = setInterval(() => { process.stdout.write(line(i++) + '\\n') }, 20)
        setTimeout(() => { clearInterval(timer); end(false) }, ${count})
      `
      // `--variant clean-env`: the grandchild starts with an empty environment (no trace of the agent's run in it).
      const grandchild = spawn('setsid', [process.execPath, '-e', script], { stdio: ['ignore', 'inherit', 'ignore'], ...(variant === 'clean-env' ? { env: {} } : {}) })
      report({ escaped: grandchild.pid ?? null })
      say('before the exit')
      endTurn(id)
      setTimeout(() => process.exit(0), 50)
      return
    }
    case 'echo-secrets':
      await echoSecrets()
      endTurn(id)
      return
    default:
      say('hello from a well-behaved turn')
      endTurn(id)
  }
}

/** Every way the secret may leave: split chunks, stderr pieces, deep nesting, encodings, titles, bad lines. */
async function echoSecrets(): Promise<void> {
  const secret = (secretName && process.env[secretName]) || ''
  if (!secret) {
    say('no secret given')
    return
  }
  const half = Math.floor(secret.length / 2)
  // Split across two message chunks, and across three.
  say(`key part one ${secret.slice(0, half)}`)
  say(`${secret.slice(half)} end`)
  say(secret.slice(0, 3))
  say(secret.slice(3, half + 1))
  say(secret.slice(half + 1))
  // Split across stderr writes (separate chunks on the pipe).
  process.stderr.write(`stderr says ${secret.slice(0, half)}`)
  await new Promise((resolve) => setTimeout(resolve, 30))
  process.stderr.write(`${secret.slice(half)} done\n`)
  // Encodings.
  say(`base64 ${Buffer.from(secret).toString('base64')} hex ${Buffer.from(secret).toString('hex')} HEX ${Buffer.from(secret).toString('hex').toUpperCase()} url ${encodeURIComponent(secret)} b64url ${Buffer.from(secret).toString('base64url')}`)
  say(`padded base64 ${Buffer.from(`key=${secret}`).toString('base64')}`)
  // Deep nesting, and a key named after a prototype property.
  let deep: unknown = { leaf: secret }
  for (let i = 0; i < 80; i++) deep = { d: deep }
  update({ sessionUpdate: 'tool_call', toolCallId: 'leak', title: `title ${secret}`, kind: 'execute', rawInput: { deep, constructor: secret, [secret]: 'as a key' }, status: 'in_progress' })
  update({ sessionUpdate: 'tool_call_update', toolCallId: 'leak', rawOutput: { out: `output ${secret}` }, content: [{ type: 'content', content: { type: 'text', text: secret } }], status: 'completed' })
  // A bad stdout line (logged as a preview).
  raw(`not json ${secret}`)
  // A permission whose title and options carry it; an elicitation whose message does.
  const permission = request('session/request_permission', {
    sessionId: SESSION,
    toolCall: { toolCallId: 'perm-leak', title: `Run with ${secret}`, kind: 'execute', rawInput: { command: `curl -H ${secret}` } },
    options: [{ optionId: 'allow', name: `Allow ${secret}`, kind: 'allow_once' }],
  })
  const elicitation = request('elicitation/create', { sessionId: SESSION, mode: 'form', message: `Type ${secret}`, requestedSchema: { type: 'object', properties: { a: { type: 'string', title: secret } } } })
  const scoped = request('elicitation/create', { requestId: 'outer-1', mode: 'url', message: `Open ${secret}`, url: `https://example.com/?k=${encodeURIComponent(secret)}`, elicitationId: 'leak-url' })
  report({ asked: 3 })
  await Promise.all([permission, elicitation, scoped])
  say('secrets echoed')
}

function spawnGrandchildren(): void {
  const pids: number[] = []
  for (let i = 0; i < 2; i++) {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' })
    if (child.pid) pids.push(child.pid)
  }
  // A grandchild that leaves the process group on purpose (what Bosun cannot reap; the README says so).
  const escaped = spawn('setsid', ['sleep', '600'], { stdio: 'ignore' })
  report({ grandchildren: pids, escaped: escaped.pid ?? null })
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const v of values) out[v] = (out[v] ?? 0) + 1
  return out
}

void reading

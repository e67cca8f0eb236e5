/** Log lines say who is speaking: `[agent codex pid=123] …`. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  debug(message: string, ...rest: unknown[]): void
  info(message: string, ...rest: unknown[]): void
  warn(message: string, ...rest: unknown[]): void
  error(message: string, ...rest: unknown[]): void
  child(scope: string): Logger
}

const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

function envLevel(): LogLevel {
  const raw = typeof process !== 'undefined' ? process.env.BOSUN_LOG_LEVEL : undefined
  return raw === 'debug' || raw === 'info' || raw === 'warn' || raw === 'error' ? raw : 'info'
}

export function createLogger(scope: string, sink: (level: LogLevel, line: string) => void = defaultSink): Logger {
  const min = envLevel()
  const emit = (level: LogLevel, message: string, rest: unknown[]) => {
    if (order[level] < order[min]) return
    const extra = rest.length ? ' ' + rest.map((r) => (r instanceof Error ? r.stack ?? r.message : typeof r === 'string' ? r : safeJson(r))).join(' ') : ''
    sink(level, `[${scope}] ${message}${extra}`)
  }
  return {
    debug: (m, ...r) => emit('debug', m, r),
    info: (m, ...r) => emit('info', m, r),
    warn: (m, ...r) => emit('warn', m, r),
    error: (m, ...r) => emit('error', m, r),
    child: (s) => createLogger(`${scope} ${s}`, sink),
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

function defaultSink(level: LogLevel, line: string): void {
  const stamp = new Date().toISOString()
  if (level === 'error' || level === 'warn') console.error(`${stamp} ${level} ${line}`)
  else console.log(`${stamp} ${level} ${line}`)
}

/** A logger that records lines in memory (tests). */
export function createMemoryLogger(scope = 'test'): Logger & { lines: string[] } {
  const lines: string[] = []
  const logger = createLogger(scope, (level, line) => lines.push(`${level} ${line}`))
  return Object.assign(logger, { lines })
}

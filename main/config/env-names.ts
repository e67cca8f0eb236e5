/**
 * Environment variables that something other than the person may ask Bosun to set (a registry entry, a login
 * method's `env`): which of them Bosun refuses. Such a value never configures only the program; these make the
 * dynamic loader, a language runtime or a shell load and run other code, choose which programs it starts (PATH, the
 * browser a sign-in opens), or widen what its TLS trusts, so the program the person types a login into would run
 * code, or talk to a server, the agent chose.
 */
import { ENV_NAME_PATTERN } from './agent-definitions'

const CODE_OR_TRUST_ENV = new RegExp(
  '^(' +
    [
      // The dynamic loader, and bash's exported functions.
      'LD_.*',
      'DYLD_.*',
      'GCONV_PATH',
      'BASH_FUNC_.*',
      // Shells.
      'BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|IFS',
      // Runtimes.
      'NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|ELECTRON_.*',
      'PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PYTHONEXECUTABLE|PYTHONINSPECT|PYTHONWARNINGS|PYTHONBREAKPOINT|PYTHONPLATLIBDIR',
      'PERL5OPT|PERL5LIB|PERLLIB|PERL5DB',
      'RUBYOPT|RUBYLIB',
      'JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH',
      'DOTNET_STARTUP_HOOKS',
      // The programs it starts.
      'PATH|BROWSER|EDITOR|VISUAL|PAGER|GIT_EDITOR|GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_EXEC_PATH|GIT_CONFIG_.*',
      // What TLS trusts.
      'NODE_EXTRA_CA_CERTS|NODE_TLS_REJECT_UNAUTHORIZED|SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE',
    ].join('|') +
    ')$',
  'i',
)

/** Whether `name` may be set on another's word: a portable name, none of the variables above. */
export const isSettableEnvName = (name: string): boolean => ENV_NAME_PATTERN.test(name) && !CODE_OR_TRUST_ENV.test(name)

/** `env` split into what may be set and the names left out, in their order. */
export function settableEnv(env: Readonly<Record<string, string>>): { env: Record<string, string>; dropped: string[] } {
  const kept: Record<string, string> = {}
  const dropped: string[] = []
  for (const [name, value] of Object.entries(env)) {
    if (isSettableEnvName(name)) kept[name] = value
    else dropped.push(name)
  }
  return { env: kept, dropped }
}

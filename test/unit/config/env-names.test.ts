import { expect, it } from 'vitest'
import { isSettableEnvName, settableEnv } from '../../../main/config/env-names'

it('refuses, whatever their case, the variables that load code, choose programs or widen TLS trust, and names that are not names', () => {
  const refused = ['LD_PRELOAD', 'ld_library_path', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'Path', 'PYTHONSTARTUP', 'PYTHONWARNINGS', 'BASH_ENV', 'BASH_FUNC_ls%%', 'BROWSER', 'GIT_SSH_COMMAND', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'JAVA_TOOL_OPTIONS', 'PERL5OPT', 'RUBYOPT', 'ELECTRON_RUN_AS_NODE']
  const odd = ['LD_PRELOAD=/tmp/x.so:', 'A B', '', '1ABC', 'A\u0000B']
  expect([...refused, ...odd].filter(isSettableEnvName)).toEqual([])
  expect(['LOGIN_MODE', 'ACME_TOKEN', 'NODE_ENV', 'LANG', 'XDG_CONFIG_HOME', 'PATHS_TO_SKIP', 'MY_PATH', 'PYTHONUNBUFFERED'].filter(isSettableEnvName)).toEqual(['LOGIN_MODE', 'ACME_TOKEN', 'NODE_ENV', 'LANG', 'XDG_CONFIG_HOME', 'PATHS_TO_SKIP', 'MY_PATH', 'PYTHONUNBUFFERED'])
})

it('splits an env into what is set and the names left out, in order', () => {
  expect(settableEnv({ A: '1', LD_PRELOAD: '/x.so', B: '2', 'PATH=/tmp': '' })).toEqual({ env: { A: '1', B: '2' }, dropped: ['LD_PRELOAD', 'PATH=/tmp'] })
})

import { expect, it } from 'vitest'
import { windowsTreeKill } from '../../../main/agents/agent-process'

it('on Windows an agent is stopped with its whole process tree (taskkill /T /F on its pid)', () => {
  expect(windowsTreeKill(4242)).toEqual({ file: 'taskkill', args: ['/PID', '4242', '/T', '/F'] })
})

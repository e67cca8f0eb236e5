import { defineConfig } from 'vitest/config'

// expect.poll waits for something a real process does (an agent started and answered): 1 s, vitest's default, is
// less than a start takes on a busy 2-core machine. Passing polls end as soon as they pass. (Set per project: inline
// projects do not inherit the root's test options.)
const poll = { poll: { timeout: 15_000 } }

// Each test file runs with TMPDIR in a folder of its own (inside one per run and project): what a file leaves there,
// or a process it started that still runs after it, fails the file; what a whole run leaves fails the run.
const cleanup = { globalSetup: ['test/support/temp-dir.global.ts'], setupFiles: ['test/support/temp-dir.setup.ts'] }

export default defineConfig({
  test: {
    // Keep test output readable: lifecycle lines of agents are info-level (BOSUN_LOG_LEVEL=info shows them, to chase a
    // test that failed once: when each agent started, stopped or was answered).
    // No test reaches the official ACP Registry: its default points at a closed port on this machine.
    env: { BOSUN_LOG_LEVEL: process.env.BOSUN_LOG_LEVEL ?? 'warn', BOSUN_REGISTRY_URL: 'http://127.0.0.1:9/registry.json' },
    projects: [
      {
        test: {
          name: 'unit',
          expect: poll,
          sequence: { groupOrder: 0 },
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          ...cleanup,
          environment: 'node',
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'integration',
          expect: poll,
          sequence: { groupOrder: 1 },
          include: ['test/integration/**/*.test.ts'],
          globalSetup: cleanup.globalSetup,
          setupFiles: [...cleanup.setupFiles, 'test/support/contract-events.setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Integration tests spawn real agent processes; keep them from starving each other on 2 cores.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          expect: poll,
          sequence: { groupOrder: 2 },
          include: ['test/e2e/**/*.test.ts'],
          ...cleanup,
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One browser at a time: two cores, one Chromium, one agent per test.
          fileParallelism: false,
        },
      },
    ],
  },
})

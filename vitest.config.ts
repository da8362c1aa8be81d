import { defineConfig } from 'vitest/config';

// One project per folder that owns tests; a project whose folder has no test yet contributes nothing.
export default defineConfig({
  test: {
    passWithNoTests: false,
    projects: [
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Starting a server (migrations included) happens in the first test of a file that uses
        // server/test/fixture.ts, or in a beforeAll: on a busy machine it takes longer than vitest's defaults.
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          // Decides the engines (PostgreSQL only when reachable, or always in CI) and says so in one line.
          globalSetup: ['server/test/engines.global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['conformance-tests/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/engines.global-setup.ts'],
        },
      },
      {
        test: { name: 'lib', include: ['lib/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'bench', include: ['bench/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'client', include: ['client/**/*.test.ts'], environment: 'node', testTimeout: 120_000 },
      },
    ],
  },
});

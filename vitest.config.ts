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
        // The first test of a file that uses server/test/fixture.ts starts that file's server (migrations included).
        test: { name: 'server', include: ['server/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        test: { name: 'conformance', include: ['conformance-tests/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'lib', include: ['lib/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'client', include: ['client/**/*.test.ts'], environment: 'node', testTimeout: 120_000 },
      },
    ],
  },
});

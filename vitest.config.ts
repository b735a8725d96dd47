import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time (Vitest's default on 2 cores is one): the API files mostly wait on
    // sockets, timers and databases, and each has its own servers, PostgreSQL schema and Redis
    // prefix. 230 s → 130 s for the whole run on the CI machine's 2 cores.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Each file starts real servers against real databases (its own SQLite file,
          // PostgreSQL schema and Redis key prefix, so two files can run at once).
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
    ],
  },
});

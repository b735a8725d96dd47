import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every core (Vitest's default leaves one free): the API files wait on their servers and
    // databases as much as they compute.
    maxWorkers: '100%',
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
          // Each file starts real servers against real databases; files run two at a time
          // (the machine's cores), each on its own SQLite files, PostgreSQL schema and Redis prefix.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['tests/api/pgTeardown.ts'],
        },
      },
    ],
  },
});

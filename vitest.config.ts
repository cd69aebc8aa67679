import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // PGlite instances are heavy (WASM heap): at most two test files in flight on two cores
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'app/**/*.unit.test.ts'],
          setupFiles: ['tests/setup.ts'],
          environment: 'node',
          globals: true,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'app/**/*.int.test.ts'],
          setupFiles: ['tests/setup.ts'],
          environment: 'node',
          globals: true,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
    ],
  },
})

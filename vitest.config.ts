import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'app/**/*.test.ts'],
          environment: 'node',
          globals: true,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globals: true,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // PGlite instances are heavy (WASM heap); keep a few files in flight at once
          pool: 'forks',
          poolOptions: { forks: { maxForks: 2, minForks: 1 } },
        },
      },
    ],
  },
})

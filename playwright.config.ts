/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the production
 * build on a fresh data folder, once with JavaScript and once without.
 */
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3299)
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'canopy-e2e-data')
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const launchOptions = {
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [
    { name: 'js', use: { browserName: 'chromium', javaScriptEnabled: true } },
    { name: 'no-js', use: { browserName: 'chromium', javaScriptEnabled: false } },
  ],
  webServer: {
    command: `rm -rf "${DATA_DIR}" && node build/server.js`,
    url: `http://127.0.0.1:${PORT}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { NODE_ENV: 'production', PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR, LOG_LEVEL: 'warn' },
  },
})

/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the production
 * build, once with JavaScript and once without. The server runs on a fresh PostgreSQL schema
 * so fixtures can create accounts through the same store the app uses (the embedded database
 * allows one process only); the embedded default is covered by the integration suite.
 */
import { defineConfig } from '@playwright/test'
import { E2E } from './tests/e2e/env'

const launchOptions = {
  executablePath: E2E.chromium,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
}

export default defineConfig({
  // the engine's tests, and each business area's beside its code (app/areas/<area>/*.e2e.ts, decision 022)
  testDir: '.',
  testMatch: ['tests/e2e/**/*.test.ts', 'app/areas/**/*.e2e.ts'],
  testIgnore: ['**/node_modules/**', 'build/**', 'data/**'],
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL: E2E.baseURL,
    trace: 'retain-on-failure',
    launchOptions,
  },
  projects: [
    { name: 'js', use: { browserName: 'chromium', javaScriptEnabled: true } },
    { name: 'no-js', use: { browserName: 'chromium', javaScriptEnabled: false } },
  ],
  // a real SMTP server the e2e server sends its mail to (every mail is kept as a file in E2E.mailDir)
  globalSetup: './tests/e2e/global-setup.ts',
  webServer: {
    command: `rm -rf "${E2E.dataDir}" && node tests/e2e/reset-schema.mjs && node build/server.js`,
    url: `${E2E.baseURL}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      E2E_PG_SCHEMA: E2E.schema, NODE_ENV: 'production', PORT: String(E2E.port), MQTT_PORT: String(E2E.mqttPort), MQTT_WS_PORT: String(E2E.mqttWsPort), HOST: '127.0.0.1', DATA_DIR: E2E.dataDir, DATABASE_URL: E2E.serverDatabaseUrl, LOG_LEVEL: 'warn',
      // the suite clicks far faster than a person (super walks ~150 routes in seconds, every test signs
      // in from 127.0.0.1): the rate limits would stop it by design. They are tested in
      // tests/integration/limits.test.ts; here they are set high, not off.
      // the demo's simulated devices run in the server (scales, RFID readers, sensors, printers writing to E2E.printDir)
      DEMO_DEVICES: '1', PRINT_DIR: E2E.printDir, DEVICES_SENSOR_EVERY_MS: '5000',
      // the METRC emulator that ships with Canopy answers the credentials check (any free port)
      METRC_EMULATOR_PORT: '0', METRC_SYNC_DATA_MIN: '0', // Sync now only: a test's link must not fill other tests' tables
      METRC_DEMO_LINKS: '0', METRC_PUSH_EVERY_MS: '500', // each test links what it needs; queued pushes go out quickly
      SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`, MSG_UNREAD_MAIL_AFTER_S: '3', PUBLIC_URL: E2E.baseURL,
      RATE_LIMIT_PER_SEC: '1000', RATE_LIMIT_BURST: '5000', RATE_LIMIT_ADDRESS_PER_SEC: '1000', RATE_LIMIT_ADDRESS_BURST: '5000',
    },
  },
})

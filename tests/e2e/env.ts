/** Where the end-to-end server runs and which database it uses (shared by config, setup and fixtures). */
import os from 'node:os'
import path from 'node:path'

const port = Number(process.env.E2E_PORT ?? 3299)
const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const schema = process.env.E2E_PG_SCHEMA ?? 'canopy_e2e'
const u = new URL(databaseUrl)
u.searchParams.set('options', `-c search_path=${schema},public`)

export const E2E = {
  port,
  baseURL: `http://127.0.0.1:${port}`,
  /** the embedded MQTT broker of the e2e server (TCP, WebSocket) */
  mqttPort: Number(process.env.E2E_MQTT_PORT ?? port + 1000),
  mqttWsPort: Number(process.env.E2E_MQTT_WS_PORT ?? port + 2000),
  dataDir: process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'canopy-e2e-data'),
  /** where the server's simulated label printers write what they print (DEMO_DEVICES=1) */
  printDir: path.join(process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'canopy-e2e-data'), 'prints'),
  /** a real SMTP server for the run (tests/e2e/global-setup.ts): the server's SMTP_URL; each mail it receives is written to mailDir */
  smtpPort: Number(process.env.E2E_SMTP_PORT ?? port + 3000),
  mailDir: `${process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'canopy-e2e-data')}-mail`,
  chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  databaseUrl,
  schema,
  serverDatabaseUrl: u.toString(),
}

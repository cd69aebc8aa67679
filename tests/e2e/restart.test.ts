/**
 * Pages that survive a server restart (issue 28), in Chromium against a real server this test starts, stops
 * and starts again (on each engine: PGlite in a data folder, PostgreSQL in a fresh schema). A signed-in grower
 * on a table page asks for the next page while the server is down: the page keeps its rows, says SPEC §8's
 * 'Server unreachable' (never 'Something went wrong'), keeps trying, and shows page 2 once the server is back.
 * With JavaScript off a page is a plain document: the browser itself says it cannot reach the server.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { expect, test, type Page } from '@playwright/test'
import { DEMO_PASSWORD } from '../../app/seed/core'
import { E2E } from './env'

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'needs JavaScript: without it the browser shows its own error page')
test.describe.configure({ timeout: 240_000 })

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

function start(env: Record<string, string>): { proc: ChildProcess; ready: Promise<void>; exited: Promise<unknown> } {
  const proc: ChildProcess = spawn(process.execPath, ['build/server.js'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as unknown as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise((resolve) => proc.on('exit', resolve))
  const ready = (async () => {
    const end = Date.now() + 180_000
    while (Date.now() < end) {
      if (proc.exitCode !== null) throw new Error(`server exited: ${out.slice(-2000)}`)
      const ok = await fetch(`http://127.0.0.1:${env.PORT}/readyz`).then((r) => r.ok).catch(() => false)
      if (ok) return
      await new Promise((r) => setTimeout(r, 300))
    }
    throw new Error(`server not ready: ${out.slice(-2000)}`)
  })()
  return { proc, ready, exited }
}

const rows = (page: Page) => page.locator('table').first().locator(':scope > tbody > tr')
const countText = (page: Page) => page.getByText(/^\d+–\d+ of \d+ items?$/)

for (const engine of ['pglite', 'pg'] as const) {
  test(`a table page waits out a server restart and then shows what was asked (${engine})`, async ({ page }) => {
    const port = await freePort()
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-restart-'))
    const schema = `restart_${process.pid}_${Date.now()}`
    const env: Record<string, string> = { NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', MQTT_WS_PORT: '0', DATA_DIR: dataDir, DEMO_DEVICES: '0', METRC_EMULATOR_PORT: '0', METRC_DEMO_LINKS: '0', LOG_LEVEL: 'warn' }
    if (engine === 'pg') {
      const c = new pg.Client({ connectionString: E2E.databaseUrl })
      await c.connect()
      await c.query(`CREATE SCHEMA ${schema}`)
      await c.end()
      const u = new URL(E2E.databaseUrl)
      u.searchParams.set('options', `-c search_path=${schema},public`)
      env.DATABASE_URL = u.toString()
    }
    let s = start(env)
    try {
      await s.ready
      const base = `http://127.0.0.1:${port}`
      await page.goto(`${base}/Welcome`)
      await page.getByLabel('Email').fill('grower@greenleaf.demo')
      await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
      await page.getByRole('button', { name: 'Login' }).click()
      await page.getByRole('region', { name: 'Signed in' }).waitFor()
      await page.goto(`${base}/culPlants`)
      await expect(countText(page)).toHaveText(/^1–\d+ of \d+ items$/)
      const firstRow = (await rows(page).first().textContent()) ?? ''
      expect(firstRow.length).toBeGreaterThan(0)

      s.proc.kill('SIGTERM')
      await s.exited
      await page.getByRole('link', { name: 'Next' }).click()
      await expect(page.getByText('Server unreachable')).toBeVisible()
      // the page keeps what it showed; no error page replaces it
      await expect(rows(page).first()).toHaveText(firstRow)
      await expect(page.getByText(/Something went wrong/)).toHaveCount(0)
      await expect(page).not.toHaveURL(/page=2/)
      await page.waitForTimeout(2500) // a few retries against the stopped server

      s = start(env)
      await s.ready
      await expect(page).toHaveURL(/page=2&after=/, { timeout: 30_000 })
      await expect(countText(page)).toHaveText(/^\d+–\d+ of \d+ items$/)
      await expect(countText(page)).not.toHaveText(/^1–/)
      await expect(page.getByText('Server connection established')).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('status', { name: 'Server connection' })).toContainText(/Connected|Reconnected/)
    } finally {
      s.proc.kill('SIGTERM')
      await s.exited
      if (engine === 'pg') {
        const c = new pg.Client({ connectionString: E2E.databaseUrl })
        await c.connect()
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
        await c.end()
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
}

/**
 * Once per Playwright run: a real SMTP server (tests/helpers/smtp.ts) on E2E.smtpPort, the e2e
 * server's SMTP_URL. Every mail it receives is written to E2E.mailDir as an .eml file, where the
 * tests read them (mailsIn). Stopped when the run ends.
 */
import fs from 'node:fs'
import { startSmtp } from '../helpers/smtp'
import { E2E } from './env'

export default async function globalSetup() {
  fs.rmSync(E2E.mailDir, { recursive: true, force: true })
  const smtp = await startSmtp({ port: E2E.smtpPort, dir: E2E.mailDir })
  return async () => smtp.close()
}

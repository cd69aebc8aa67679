/**
 * Outgoing mail: through SMTP when SMTP_URL is set, otherwise into DATA_DIR/outbox (one .eml
 * file per message) and the log, so a demo or an offline install still shows what was sent.
 */
import fs from 'node:fs'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from 'pino'
import type { Env } from '../config/env.server'

export interface Mail {
  to: string
  subject: string
  text: string
  html?: string
  /** extra header lines (e.g. List-Unsubscribe on a campaign mail) */
  headers?: Record<string, string>
}

export async function sendMail(env: Env, logger: Logger, mail: Mail): Promise<void> {
  if (env.SMTP_URL) {
    const t = nodemailer.createTransport(env.SMTP_URL)
    await t.sendMail({ from: env.MAIL_FROM, ...mail })
    logger.info({ to: mail.to, subject: mail.subject, via: 'smtp' }, 'mail sent')
    return
  }
  const dir = path.join(env.DATA_DIR, 'outbox')
  fs.mkdirSync(dir, { recursive: true })
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  const info = await t.sendMail({ from: env.MAIL_FROM, ...mail })
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`)
  fs.writeFileSync(file, info.message as Buffer, { mode: 0o600 })
  logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox (SMTP_URL is not set)')
}

/**
 * An empty install for end-to-end tests (issue 22): a real SMTP server (smtp-server) that keeps
 * every mail it is given, and a Canopy server of the production build with DEMO_DATA=0 on its own
 * PostgreSQL schema and data folder, mailing through that SMTP server.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import { E2E } from './env'

export interface Mail {
  from: string
  to: string[]
  subject: string
  text: string
  raw: string
}

/** The text of a mail as nodemailer writes it (7bit or quoted-printable). */
function decode(raw: string): { subject: string; from: string; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/)
  const body = rest.join('\n\n')
  const header = (n: string) => new RegExp(`^${n}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head)?.[1].replace(/\r?\n[ \t]/g, ' ').trim() ?? ''
  const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'))
  const text = qp ? Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8') : body
  return { subject: header('Subject'), from: header('From'), text }
}

export class Inbox {
  readonly mails: Mail[] = []
  private server: SMTPServer
  port = 0
  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          const d = decode(raw)
          this.mails.push({ ...d, raw, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) })
          cb()
        })
      },
    })
  }
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()))
    this.port = (this.server.server.address() as { port: number }).port
  }
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
  /** Waits for the next mail to `to` whose subject matches. */
  async waitFor(to: string, subject: RegExp, timeoutMs = 15_000): Promise<Mail> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const m = this.mails.find((x) => x.to.includes(to.toLowerCase()) && subject.test(x.subject))
      if (m) {
        this.mails.splice(this.mails.indexOf(m), 1)
        return m
      }
      if (Date.now() > end) throw new Error(`no mail to ${to} (${subject}) within ${timeoutMs} ms; got: ${this.mails.map((x) => `${x.to} ${x.subject}`).join(' | ')}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

export const linkIn = (mail: Mail, pathPrefix: string): string => {
  const m = new RegExp(`https?://[^\\s]+${pathPrefix}[A-Za-z0-9_-]+`).exec(mail.text)
  if (!m) throw new Error(`no ${pathPrefix} link in the mail: ${mail.text}`)
  return m[0]
}

export interface EmptyInstall {
  url: string
  schema: string
  databaseUrl: string
  admin: { email: string; password: string; name: string }
  mailFrom: string
  stop(): Promise<void>
}

/** Starts the production build on an empty database (DEMO_DATA=0). `slot` keeps ports and schemas apart. */
export async function startEmptyInstall(inbox: Inbox, slot: number): Promise<EmptyInstall> {
  const port = E2E.port + 5 + slot
  const schema = `${E2E.schema}_empty${slot}`
  const dataDir = path.join(E2E.dataDir, `empty${slot}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
  const c = new pg.Client({ connectionString: E2E.databaseUrl })
  await c.connect()
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await c.query(`CREATE SCHEMA ${schema}`)
  await c.end()
  const u = new URL(E2E.databaseUrl)
  u.searchParams.set('options', `-c search_path=${schema},public`)
  const admin = { email: 'owner@canopy.test', password: 'Owner#Pass1', name: 'Pat Operator' }
  const mailFrom = 'Canopy Onboarding <onboarding@canopy.test>'
  const child: ChildProcess = spawn(process.execPath, ['build/server.js'], {
    env: {
      ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: u.toString(), LOG_LEVEL: 'warn',
      DEMO_DATA: '0', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, ADMIN_NAME: admin.name,
      SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, MAIL_FROM: mailFrom, MQTT_PORT: '0', MQTT_WS_PORT: '0', METRC_EMULATOR: '', METRC_SYNC_DATA_MIN: '0', METRC_PUSH_EVERY_MS: '0',
      RATE_LIMIT_PER_SEC: '1000', RATE_LIMIT_BURST: '5000', RATE_LIMIT_ADDRESS_PER_SEC: '1000', RATE_LIMIT_ADDRESS_BURST: '5000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)))
  const url = `http://127.0.0.1:${port}`
  const end = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the empty install exited ${child.exitCode}: ${err}`)
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false)
    if (ok) break
    if (Date.now() > end) throw new Error(`the empty install did not get ready: ${err}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    url, schema, databaseUrl: E2E.databaseUrl, admin, mailFrom,
    async stop() {
      if (child.exitCode !== null) return
      const gone = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await gone
    },
  }
}

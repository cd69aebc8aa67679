/**
 * A real SMTP server for tests (smtp-server): it accepts every message on 127.0.0.1 (no TLS, no
 * sign-in, as a relay on the same host would) and keeps what arrived, so a test reads the mail the
 * app really sent through SMTP_URL. `dir` also writes each message there as an .eml file (for a
 * server in another process, e.g. the end-to-end one, whose test reads the folder).
 */
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { SMTPServer } from 'smtp-server'

export interface CapturedMail {
  from: string
  to: string[]
  raw: string
  subject: string
  /** the text body, quoted-printable soft breaks and =XX escapes decoded */
  text: string
}

export interface SmtpCapture {
  port: number
  url: string
  mails: CapturedMail[]
  /** the mails to this address so far */
  to(address: string): CapturedMail[]
  /** waits (polling) until `pred` holds for some mail; answers it */
  waitFor(pred: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>
  close(): Promise<void>
}

const decodeQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))

export function parseMail(raw: string, from = '', to: string[] = []): CapturedMail {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/)
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ')
  const subject = /^Subject: (.*)$/im.exec(unfolded)?.[1] ?? ''
  const dec = subject.replace(/=\?utf-8\?(Q|B)\?([^?]*)\?=/gi, (_, enc: string, t: string) => (enc.toUpperCase() === 'B' ? Buffer.from(t, 'base64').toString('utf8') : Buffer.from(decodeQp(t.replace(/_/g, ' ')), 'latin1').toString('utf8')))
  const body = rest.join('\n\n')
  const text = /Content-Transfer-Encoding: base64/i.test(unfolded) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : Buffer.from(decodeQp(body), 'latin1').toString('utf8')
  return { from, to, raw, subject: dec.replace(/\s+/g, ' ').trim(), text }
}

export async function startSmtp(o: { port?: number; dir?: string } = {}): Promise<SmtpCapture> {
  const mails: CapturedMail[] = []
  if (o.dir) fs.mkdirSync(o.dir, { recursive: true })
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const to = session.envelope.rcptTo.map((r) => r.address)
        const m = parseMail(raw, session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to)
        mails.push(m)
        if (o.dir) fs.writeFileSync(path.join(o.dir, `${Date.now()}-${mails.length}-${to.join(',').replace(/[^a-z0-9@._,-]/gi, '_')}.eml`), raw)
        done()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address) => mails.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    async waitFor(pred, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const m = mails.find(pred)
        if (m) return m
        if (Date.now() > until) throw new Error(`no such mail within ${timeoutMs} ms; got: ${mails.map((x) => `${x.to.join(',')}: ${x.subject}`).join(' | ') || 'none'}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The mails an SMTP capture in another process wrote to `dir` (see `startSmtp({ dir })`). */
export function mailsIn(dir: string): CapturedMail[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const raw = fs.readFileSync(path.join(dir, f), 'utf8')
      const to = /^To: (.*)$/im.exec(raw)?.[1] ?? ''
      return parseMail(raw, '', to.split(',').map((x) => x.replace(/.*</, '').replace(/>.*/, '').trim()))
    })
}

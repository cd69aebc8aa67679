/**
 * The reports' PDF downloads (issue 24 item 4) on the real database, PGlite and PostgreSQL, through
 * the real route modules: /DisReports.pdf (each grouping), /FinReports.pdf (tax, ageing, sales) and
 * /TaxReceivables.pdf (all clients and one) of the demo's flow; each PDF read back with unpdf holds
 * every row's label, count and amounts and the Total row the CSV of the same view gives, the
 * facility, the period and the time it was made; the same rights as the page (403 without the
 * module, the sign-in page without a session); a filter that is not one is a 400 saying so (page,
 * CSV and PDF), never a database error.
 */
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node'
import pino from 'pino'
import { extractText } from 'unpdf'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { loader as disCsv } from '#app/routes/DisReports[.]csv'
import { loader as disPdf } from '#app/routes/DisReports[.]pdf'
import { loader as disPage } from '#app/routes/DisReports'
import { loader as finCsv } from '#app/routes/FinReports[.]csv'
import { loader as finPdf } from '#app/routes/FinReports[.]pdf'
import { loader as finPage } from '#app/routes/FinReports'
import { loader as recCsv } from '#app/routes/TaxReceivables[.]csv'
import { loader as recPdf } from '#app/routes/TaxReceivables[.]pdf'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { usd } from '../distribution/money'
import { dayIn } from './reports.server'

const ORG = 'harbor'
const TZ = 'America/Denver'
let t: TestDatabase
let env: Env

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1' })
  await seedDemo(t, env)
}, 300_000)
afterAll(async () => {
  await t?.cleanup()
})

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `rep-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
type Loader = (a: LoaderFunctionArgs) => unknown
async function get(loader: Loader, path: string, uid: string | null = 'u-dist', facility = ORG): Promise<Response> {
  const headers: Record<string, string> = uid ? { Cookie: `${COOKIE}=${await createSession(t, { uid, step: 'done', facility })}` } : {}
  try {
    return (await loader({ request: new Request(`http://canopy.test${path}`, { headers }), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}

const pdfText = async (res: Response) => (await extractText(new Uint8Array(await res.arrayBuffer()), { mergePages: true })).text.replace(/\s+/g, ' ')

/** CSV rows (quoted cells with "" and commas; no line breaks in cells here), the header dropped. */
function csvRows(text: string): string[][] {
  const rows = text.replace(/^\uFEFF/, '').trim().split(/\r\n/).map((line) => {
    const cells: string[] = []
    let cur = ''
    let q = false
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]
      if (q && ch === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (ch === '"') q = !q
      else if (ch === ',' && !q) {
        cells.push(cur)
        cur = ''
      } else cur += ch
    }
    cells.push(cur)
    return cells
  })
  return rows.slice(1)
}
/** a CSV amount → cents (a negative one is written '-12.34: the CSV's guard against formulas) */
const asCents = (s: string) => {
  const n = Number(s.replace(/^'(?=-)/, ''))
  expect(Number.isFinite(n), s).toBe(true)
  return Math.round(n * 100)
}

/** Every CSV row (label, count, amounts; the Total row last) is a row of the PDF, in the page's format and order. */
function expectSameRows(pdf: string, csv: string[][], moneyFrom = 2) {
  expect(csv.length).toBeGreaterThan(1) // rows and the total
  expect(csv[csv.length - 1][0]).toBe('Total')
  for (const r of csv) {
    const cells = r.map((c, i) => (i >= moneyFrom ? usd(asCents(c)) : c))
    expect(pdf).toContain(cells.join(' '))
  }
}

const FROM = '2020-01-01'
const to = () => dayIn(TZ, new Date(Date.now() + 86_400_000))

describe('PDF downloads carry the figures of the page and the CSV', () => {
  it('/DisReports.pdf: sales by client, product, day and month', async () => {
    const page = (await (await get(disPage, `/DisReports?from=${FROM}&to=${to()}&by=client`)).json()) as { report: { rows: unknown[]; total: { cents: number } } }
    expect(page.report.rows.length).toBeGreaterThan(0)
    for (const by of ['client', 'product', 'day', 'month']) {
      const q = `from=${FROM}&to=${to()}&by=${by}`
      const res = await get(disPdf, `/DisReports.pdf?${q}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/pdf')
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="sales-by-${by}-${FROM}-to-${to()}.pdf"`)
      const text = await pdfText(res)
      const csv = csvRows(await (await get(disCsv, `/DisReports.csv?${q}`)).text())
      expectSameRows(text, csv)
      // the page's total is the PDF's: one report, one set of figures
      expect(asCents(csv[csv.length - 1][2])).toBe(page.report.total.cents)
      expect(text).toContain(`Sales by ${by}`)
      expect(text).toContain('Harbor Distribution, Denver')
      expect(text).toContain(`Period: ${FROM} to ${to()} (${TZ})`)
      expect(text).toMatch(/Generated \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} [AP]M \(America\/Denver\)/)
      expect(text).toMatch(/page 1 of \d+/)
    }
  })

  it('/FinReports.pdf: tax, ageing and sales by month', async () => {
    const names = { tax: `tax-${FROM}-to-${to()}.pdf`, ageing: `receivables-ageing-${dayIn(TZ)}.pdf`, sales: `sales-by-month-${FROM}-to-${to()}.pdf` }
    const titles = { tax: 'Tax collected and due', ageing: 'Receivables ageing', sales: 'Sales by month' }
    for (const report of ['tax', 'ageing', 'sales'] as const) {
      const q = `from=${FROM}&to=${to()}&report=${report}`
      const res = await get(finPdf, `/FinReports.pdf?${q}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/pdf')
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${names[report]}"`)
      const text = await pdfText(res)
      expectSameRows(text, csvRows(await (await get(finCsv, `/FinReports.csv?${q}`)).text()))
      expect(text).toContain(titles[report])
      expect(text).toContain('Harbor Distribution, Denver')
    }
    // the demo's overdue invoice is in the ageing
    const ageing = csvRows(await (await get(finCsv, '/FinReports.csv?report=ageing')).text())
    expect(asCents(ageing[ageing.length - 1][2])).toBeGreaterThan(0)
  })

  it('/TaxReceivables.pdf: every open invoice with its balance, the total owed; one client', async () => {
    const res = await get(recPdf, '/TaxReceivables.pdf')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="receivables-${dayIn(TZ)}.pdf"`)
    const text = await pdfText(res)
    const csv = csvRows(await (await get(recCsv, '/TaxReceivables.csv')).text())
    const invoices = csv.slice(0, -1)
    expect(invoices.length).toBeGreaterThan(0)
    for (const [no, client, date, due, bucket, total, balance] of invoices) expect(text).toContain(`${no} ${client} ${date} ${due} ${bucket} ${usd(asCents(total))} ${usd(asCents(balance))}`)
    const owed = asCents(csv[csv.length - 1][6])
    expect(owed).toBe(invoices.reduce((s, r) => s + asCents(r[6]), 0))
    expect(text).toContain(`Total ${invoices.length} invoice${invoices.length === 1 ? '' : 's'} ${usd(owed)}`)
    expect(text).toContain('Client: All clients')

    const client = (await t.db.query<{ client: string; name: string }>(`SELECT o.doc->>'client' AS client, c.doc->>'name' AS name FROM c_tax_receivables o JOIN c_set_clients c ON c.org = o.org AND c.id = o.doc->>'client' WHERE o.org = $1 AND (o.doc->>'balanceCents')::bigint > 0 LIMIT 1`, [ORG])).rows[0]
    const one = await pdfText(await get(recPdf, `/TaxReceivables.pdf?client=${client.client}`))
    const oneCsv = csvRows(await (await get(recCsv, `/TaxReceivables.csv?client=${client.client}`)).text())
    expect(one).toContain(`Client: ${client.name}`)
    for (const r of oneCsv.slice(0, -1)) expect(one).toContain(`${r[0]} ${client.name}`)
    expect(one).toContain(usd(asCents(oneCsv[oneCsv.length - 1][6])))
    for (const r of invoices.filter((x) => x[1] !== client.name)) expect(one).not.toContain(r[0])
  })
})

describe('the same rights as the page', () => {
  it('a user without the modules is refused (403); without a session, the sign-in page', async () => {
    for (const [loader, path] of [[disPdf, '/DisReports.pdf'], [finPdf, '/FinReports.pdf?report=ageing'], [recPdf, '/TaxReceivables.pdf']] as const) {
      const refused = await get(loader, path, 'u-grower', 'greenleaf')
      expect(refused.status).toBe(403)
      expect(refused.headers.get('content-type') ?? '').not.toContain('pdf')
      const anon = await get(loader, path, null)
      expect(anon.status).toBe(302)
      expect(anon.headers.get('location')).toMatch(/^\/Welcome/)
    }
    // a bad filter from a user without the module is still a 403, not a 400
    expect((await get(finPdf, '/FinReports.pdf?report=nope', 'u-grower', 'greenleaf')).status).toBe(403)
  })
})

describe('a filter that is not one', () => {
  it('is a 400 naming it on the page, the CSV and the PDF, never a database error', async () => {
    const cases: Array<[Loader, string, RegExp]> = [
      [disPage, '/DisReports?from=2026-02-30&to=2026-03-31', /From must be a day/],
      [disCsv, '/DisReports.csv?from=2026-02-30', /From must be a day/],
      [disPdf, '/DisReports.pdf?from=2026-02-30', /From must be a day/],
      [disPdf, '/DisReports.pdf?to=31/12/2026', /To must be a day/],
      [disPdf, '/DisReports.pdf?by=week', /Sales by must be client, product, day or month/],
      [disPage, '/DisReports?by=week', /Sales by must be/],
      [finPage, '/FinReports?to=2026-13-01', /To must be a day/],
      [finPdf, '/FinReports.pdf?report=tax&from=2026-04-31', /From must be a day/],
      [finPdf, '/FinReports.pdf?report=profit', /The report must be tax, ageing or sales/],
      [finCsv, '/FinReports.csv?report=profit', /The report must be tax, ageing or sales/],
    ]
    for (const [loader, path, message] of cases) {
      const res = await get(loader, path)
      expect(res.status, path).toBe(400)
      expect(await res.text(), path).toMatch(message)
    }
    // an empty filter is the default, as the page's form sends it
    expect((await get(disPdf, '/DisReports.pdf?from=&to=&by=')).status).toBe(200)
    // a period given backwards is the same period
    const back = await get(disPdf, `/DisReports.pdf?from=${to()}&to=${FROM}`)
    expect(back.headers.get('content-disposition')).toContain(`${FROM}-to-${to()}`)
  })
})

/**
 * GET /import-template/{screen}: a CSV with the header row an import of this table reads (decision
 * 070): the fields a file can fill, by the labels the table and Export CSV use. One named segment,
 * like /export/{screen}, so it never ties with the record page's /{screen}/{id}.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { csvLine } from '../screens/csv'
import { importFields } from '../screens/csv-import'
import { importTarget } from '../screens/csv-import.server'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const t = await importTarget(request, context, `/${params.screen ?? ''}`)
  const fields = importFields(t.schema)
  return new Response(`\uFEFF${csvLine(fields.map((f) => f.label))}`, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${t.route.collection}-template.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}

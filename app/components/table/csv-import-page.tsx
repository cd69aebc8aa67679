/**
 * The CSV import page (decision 070): the upload form with the template link; then the preview
 * (rows with problems first, by row and column, in the form's words; the first good rows) and the
 * choice to import the good rows or all; then the result with "Undo import". Plain forms posting
 * only the import's id, so it works without JavaScript; with it, a progress bar runs while the
 * upload is checked or the records are written.
 */
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import type { ImportPage } from '../../screens/csv-import.server'
import { useT } from '../../i18n/t'
import { BusyButton } from '../busy-button'
import { Notice } from '../ui'

const btn = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border border-slate-600 px-4 text-lg text-slate-100 hover:bg-slate-800'
const cell = 'border-b border-slate-700 px-2 py-1 text-left align-top'

function Busy({ label }: { label: string }) {
  return (
    <p className="flex items-center gap-3" role="status">
      <progress aria-label={label} className="w-64" /> {label}
    </p>
  )
}

function Upload({ data }: { data: ImportPage }) {
  const t = useT()
  const nav = useNavigation()
  const busy = nav.state === 'submitting'
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3">
      <label className="flex flex-col gap-1">
        <span>{t('CSV file')}</span>
        <input type="file" name="file" accept=".csv,text/csv" required className="min-h-11 text-lg" />
      </label>
      <p className="text-sm text-slate-400">
        {t('The first row names the fields, as the CSV template and Export CSV write them. At most')} {data.maxMb} MB.{' '}
        {t('Referenced records (a strain, a room) are named by the label the table shows.')}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <BusyButton busy={busy} busyText={t('Checking…')} type="submit" className={btn}>
          {t('Upload and preview')}
        </BusyButton>
        <a href={data.template} download className={btn}>
          {t('CSV template')}
        </a>
      </div>
      {busy ? <Busy label={t('Uploading and checking the file…')} /> : null}
    </Form>
  )
}

function Preview({ imp }: { imp: NonNullable<ImportPage['imp']> }) {
  const t = useT()
  const nav = useNavigation()
  const busy = nav.state === 'submitting'
  return (
    <div className="flex flex-col gap-4">
      <p data-testid="import-summary">
        {imp.fileName}: {imp.total} {t('rows')}, {imp.good} {t('good')}, {imp.bad} {t('with problems')}.
      </p>
      {imp.ignored.length ? (
        <ul className="text-sm text-slate-400">
          {imp.ignored.map((c, i) => (
            <li key={i}>
              {t('Column')} “{c.header}”: {t(c.note)}
            </li>
          ))}
        </ul>
      ) : null}
      {imp.errors.length ? (
        <section aria-labelledby="import-errors">
          <h2 id="import-errors" className="text-xl">
            {t('Rows with problems')}
          </h2>
          <p className="text-sm text-slate-400">{t('Row numbers count the header as row 1, as a spreadsheet does.')}</p>
          <table className="mt-2" data-testid="import-errors">
            <thead>
              <tr>
                <th className={cell}>{t('Row')}</th>
                <th className={cell}>{t('Column')}</th>
                <th className={cell}>{t('Value')}</th>
                <th className={cell}>{t('Problem')}</th>
              </tr>
            </thead>
            <tbody>
              {imp.errors.map((e, i) => (
                <tr key={i}>
                  <td className={cell}>{e.row}</td>
                  <td className={cell}>{e.column}</td>
                  <td className={cell}>{e.value}</td>
                  <td className={cell}>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {imp.moreErrors ? <p>{`${imp.moreErrors} ${t('more problems are not shown; fix these and upload the file again.')}`}</p> : null}
        </section>
      ) : null}
      {imp.sample.length ? (
        <section aria-labelledby="import-good">
          <h2 id="import-good" className="text-xl">
            {t('Good rows')} {imp.sample.length < imp.good ? `(${t('the first')} ${imp.sample.length} ${t('of')} ${imp.good})` : ''}
          </h2>
          <div className="overflow-x-auto">
            <table className="mt-2" data-testid="import-good">
              <thead>
                <tr>
                  <th className={cell}>{t('Row')}</th>
                  {imp.headers.map((h, i) => (
                    <th key={i} className={cell}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {imp.sample.map((r) => (
                  <tr key={r.row}>
                    <td className={cell}>{r.row}</td>
                    {r.cells.map((c, i) => (
                      <td key={i} className={cell}>
                        {c}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="import" />
        <input type="hidden" name="id" value={imp.id} />
        {imp.bad === 0 ? (
          <BusyButton busy={busy} busyText={t('Importing…')} type="submit" name="choice" value="all" className={btn}>
            {`${t('Import all')} ${imp.total} ${t('rows')}`}
          </BusyButton>
        ) : imp.good ? (
          <BusyButton busy={busy} busyText={t('Importing…')} type="submit" name="choice" value="good" className={btn}>
            {`${t('Import the')} ${imp.good} ${t('good rows')}`}
          </BusyButton>
        ) : null}
        <Link to="?" className={btn}>
          {t('Upload another file')}
        </Link>
      </Form>
      {busy ? <Busy label={t('Importing…')} /> : null}
    </div>
  )
}

function Result({ imp, back }: { imp: NonNullable<ImportPage['imp']>; back: string }) {
  const t = useT()
  const nav = useNavigation()
  const busy = nav.state === 'submitting'
  if (imp.state === 'undone') return <Notice tone="success">{`${t('Import undone: the records imported from')} ${imp.fileName} ${t('were deleted.')}`}</Notice>
  return (
    <div className="flex flex-col gap-3">
      <Notice tone="success">
        <span data-testid="import-done">{`${t('Imported')} ${imp.created} ${t('records from')} ${imp.fileName}.`}</span>
        {imp.bad ? ` ${imp.bad} ${t('rows with problems were left out.')}` : ''}
      </Notice>
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="undo" />
        <input type="hidden" name="id" value={imp.id} />
        <BusyButton busy={busy} busyText={t('Undoing…')} type="submit" className={btn}>
          {t('Undo import')}
        </BusyButton>
        <Link to={back} className={btn}>
          {t('Back to the table')}
        </Link>
      </Form>
      {busy ? <Busy label={t('Undoing…')} /> : null}
    </div>
  )
}

export function CsvImportView() {
  const data = useLoaderData<ImportPage>()
  const action = useActionData<{ error?: string }>()
  const t = useT()
  return (
    <div className="flex flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold text-canopy-400">{`${t('Import CSV into')} ${t(data.table)}`}</h1>
      {action?.error ? (
        <div role="alert">
          <Notice tone="error">{action.error}</Notice>
        </div>
      ) : null}
      {!data.imp ? <Upload data={data} /> : data.imp.state === 'preview' ? <Preview imp={data.imp} /> : <Result imp={data.imp} back={data.back} />}
      {data.imp?.state !== 'imported' ? (
        <Link to={data.back} className="text-canopy-300 underline">
          {t('Back to the table')}
        </Link>
      ) : null}
    </div>
  )
}

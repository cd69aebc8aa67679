/**
 * The generic edit form (issue 6, page mode): one field per schema item, validated in the browser
 * with the same zod schema the action uses (compiled from the table schema), every error at once:
 * beside its field and in the summary at the top (error-summary.tsx), which links to the fields; the
 * fields the schema or the save rules always need are marked *. Works without JavaScript: the action answers
 * with the same errors. With JavaScript the table opens it in a dialog (record-dialog.tsx), posting
 * to the same action through a fetcher. Editable sub-tables are array-field.tsx; read-only ones are shown as text.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, Link, useActionData, useLoaderData, useNavigation, type FetcherWithComponents } from '@remix-run/react'
import type { SubmissionResult } from '@conform-to/react'
import { useMemo } from 'react'
import { genericFlags, isEditable, MINUTE_STEP, onPickerStep, RECORD_FLAG_LABELS, recordSchema } from '../../forms/record-schema'
import { ruleRequired } from '../../forms/save-rules'
import { ErrorSummary } from './error-summary'
import { MEASURE_UNITS } from '../../format/units'
import { formatCell } from '../../format/format'
import { BusyButton } from '../busy-button'
import { useT } from '../../i18n/t'
import { localizeOptions, localizeSchema } from '../../i18n/schema-text'
import type { EditData } from '../../screens/record-edit.server'
import type { FieldDef } from '../../schemas/table-schema'
import { FieldSummary } from '../ui'
import { DeviceButtons, type DeviceReply } from './device-buttons'
import { PrintButton } from './print-button'
import { weightForField } from '../../devices/fill'
import { ListPicker } from './list-picker'
import { ArrayField } from './array-field'
import { FileField } from './file-field'
import { ComputedField } from './computed-field'
import { DocumentField } from './document-field'
import { GaugeArrayField } from './gauge-array-field'
import { recordTitle } from '../../forms/record-title'
import { formSections, isWideField } from '../../forms/form-sections'

const input = 'min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 aria-[invalid=true]:border-red-500'

export function Errors({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className="text-sm text-red-300">
      {errors.join(' ')}
    </p>
  ) : null
}

/**
 * A date-time: the picker's 5-minute step (SPEC §9) for what the user picks; a stored value off
 * that step (seconds, 14:03) shows exactly and takes any minute, so an untouched one is saved back
 * as it was (the server still holds a changed value to the step).
 */
function DateInput({ meta, needed }: { meta: FieldMetadata<string>; needed?: boolean }) {
  const first = Array.isArray(meta.initialValue) ? meta.initialValue.at(-1) : meta.initialValue
  return <input {...getInputProps(meta, { type: 'datetime-local' })} aria-required={needed || undefined} step={onPickerStep(first) ? MINUTE_STEP * 60 : 'any'} className={input} />
}

/**
 * The input of one field, top-level or a sub-table column. `needed`: a field the table's save rules
 * always need (not a native `required`, which would stop a post without JavaScript before the rules answer).
 */
export function FieldInput({ f, meta, data, needed }: { f: FieldDef; meta: FieldMetadata<unknown>; data: EditData; needed?: boolean }) {
  const t = useT()
  // the schema's list values shown in the user's language; the option's value stays canonical
  const opts = localizeOptions(f, data.options[f.key] ?? [], t)
  const req = needed ? { 'aria-required': true } : {}
  switch (f.type) {
    case 'document':
      return <DocumentField f={f} meta={meta as FieldMetadata<string>} className={input} t={t} needed={needed} />
    case 'textarea':
    case 'code':
      return <textarea {...getTextareaProps(meta as FieldMetadata<string>)} {...req} rows={f.type === 'code' ? 8 : 4} className={`${input} ${f.type === 'code' ? 'font-mono' : ''}`} />
    case 'number':
    case 'currency':
      return <input {...getInputProps(meta as FieldMetadata<string>, { type: 'text' })} {...req} inputMode="decimal" className={input} />
    case 'date':
      return <DateInput meta={meta as FieldMetadata<string>} needed={needed} />
    case 'check':
    case 'status': {
      // posted as a hidden "no" then the box's "yes": after a refused save the last one is what the user chose
      const v = meta.initialValue
      const on = (Array.isArray(v) ? v.at(-1) : v) === 'yes'
      return (
        <span className="flex items-center gap-2">
          <input type="hidden" name={meta.name} value="no" />
          <input type="checkbox" id={meta.id} name={meta.name} value="yes" defaultChecked={on} className="h-6 w-6" aria-describedby={meta.errorId} />
          <span className="text-sm text-slate-400">{t('Yes')}</span>
        </span>
      )
    }
    case 'measure': {
      const m = meta as unknown as FieldMetadata<{ qty: string; unit: string }>
      const parts = m.getFieldset()
      const units = f.units?.length ? f.units : [...MEASURE_UNITS]
      return (
        <span className="flex gap-2">
          <input {...getInputProps(parts.qty, { type: 'text' })} {...req} inputMode="decimal" aria-label={`${f.label}: ${t('quantity')}`} className={input} />
          <select {...getSelectProps(parts.unit)} aria-label={`${f.label}: ${t('unit')}`} className={`${input} w-28`}>
            {units.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </span>
      )
    }
    case 'list':
    case 'multilist':
      return <ListPicker meta={meta as FieldMetadata<string>} opts={opts} multiple={f.type === 'multilist'} label={f.label} className={input} t={t} needed={needed} />
    case 'fileDND':
      return <FileField f={f} meta={meta} data={data} />
    case 'gaugearray':
      return <GaugeArrayField f={f} meta={meta} t={t} className={input} />
    case 'array': {
      const rows = Array.isArray(meta.initialValue) ? (meta.initialValue as Array<Record<string, unknown>>) : []
      return <p className="text-sm text-slate-400">{formatCell(rows, 'array')}</p>
    }
    default:
      return <input {...getInputProps(meta as FieldMetadata<string>, { type: 'text' })} {...req} className={input} />
  }
}

const hasFile = (fields: FieldDef[]): boolean => fields.some((f) => isEditable(f) && (f.type === 'fileDND' || (f.type === 'array' && hasFile(f.array ?? []))))

/** The dialog over the table (record-dialog.tsx): posts through a fetcher to `action`; Cancel calls `onCancel`. */
export interface InDialog {
  fetcher: FetcherWithComponents<SubmissionResult<string[]> | undefined>
  action: string
  onCancel: () => void
}

export function RecordForm({ data, dialog }: { data: EditData; dialog?: InDialog }) {
  const t = useT()
  const page = { last: useActionData<SubmissionResult<string[]>>(), busy: useNavigation().state === 'submitting' }
  const last = dialog ? dialog.fetcher.data : page.last
  const busy = dialog ? dialog.fetcher.state !== 'idle' : page.busy
  const PostForm = dialog ? dialog.fetcher.Form : Form
  const schema = useMemo(() => recordSchema(data.schema, { mode: data.id ? 'update' : 'create', canEditCts: data.canEditCts, canLockRows: data.canLockRows, timeZone: data.timeZone, stored: data.id ? data.values : undefined }), [data])
  const [form, fields] = useForm<Record<string, unknown>, Record<string, unknown>, string[]>({
    id: `record-${data.id ?? 'new'}`,
    lastResult: last,
    // the loader's values are what the inputs hold (strings, {qty, unit}, lists)
    defaultValue: data.values as Record<string, never>,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  // labels in the user's language (issue 32); validation keeps the stored schema, like the action
  const shown = useMemo(() => localizeSchema(data.schema, t), [data.schema, t])
  const editable = shown.fields.filter(isEditable)
  // required: the schema's flag, or a field the table's save rules always need (a planting's Strain)
  const needed = new Set(ruleRequired(data.schema.key))
  const marked = editable.some((f) => f.type !== 'array' && (f.required || needed.has(f.key)))
  // where the error summary's links go: each field's block, by the field's name
  const targets = Object.fromEntries(editable.map((f) => [f.key, { href: `#${fields[f.key]?.id}-block`, label: t(f.label) }]))
  /** a device reply into its field: a weight in the unit the field shows, a code as text; an error text otherwise */
  const fill = (f: FieldDef, meta: FieldMetadata<unknown>, r: DeviceReply): string | null => {
    if (r.kind === 'rfid') {
      if (f.type === 'measure') return 'This field does not take a scanned code.'
      form.update({ name: meta.name, value: r.code })
      return null
    }
    if (f.type !== 'measure') {
      form.update({ name: meta.name, value: String(r.weight) })
      return null
    }
    const current = (meta.value as { unit?: string } | undefined)?.unit
    const w = weightForField(r, current, f.units?.length ? f.units : MEASURE_UNITS)
    if ('error' in w) return w.error
    form.update({ name: meta.name, value: { qty: String(w.qty), unit: w.unit } as never })
    return null
  }
  const nested = shown.fields.filter((f) => f.type === 'array' && !isEditable(f))
  // the form's sections (issue 33 item 3): what the user enters, and what is computed from it, each in its group
  const sections = formSections(shown.fields.filter((f) => isEditable(f) || (f.type === 'function' && f.formula)))
  const flagKeys = genericFlags(data.schema).filter((k) => k === 'IsUsed' || data.canLockRows)
  const showCts = !!(data.canEditCts && fields.cts)
  const renderField = (f: FieldDef) => {
    if (f.type === 'function') return <ComputedField f={f} data={data} formId={form.id} t={t} />
    const meta = fields[f.key] as FieldMetadata<unknown>
    if (f.type === 'array') return <ArrayField f={f} meta={meta as FieldMetadata<Array<Record<string, unknown>>>} form={form} data={data} />
    return (
      <div id={`${meta.id}-block`} className="flex scroll-mt-4 flex-col gap-1">
        <span className="text-sm text-slate-300">
          <label htmlFor={meta.id}>{f.label}</label>
          {/* outside the label, so the field's name stays its label; the input says required itself (required or aria-required) */}
          {f.required || needed.has(f.key) ? (
            <span aria-hidden className="text-red-300">
              {' '}
              *
            </span>
          ) : null}
        </span>
        <FieldInput f={f} meta={meta} data={data} needed={!f.required && needed.has(f.key)} />
        <DeviceButtons f={f} fieldId={meta.id} t={t} devices={data.devices?.[f.key]} screen={data.screen} onReply={(r) => fill(f, meta, r)} />
        <Errors id={meta.errorId} errors={meta.errors} />
      </div>
    )
  }
  // after an Add row / Remove round trip or a refused save, the time the form was first opened (the unchanged-since check)
  const openedTs = typeof last?.initialValue?.__ts === 'string' ? last.initialValue.__ts : data.ts
  return (
    <div className={`flex flex-col gap-4 ${dialog ? '' : 'max-w-2xl lg:max-w-5xl'}`}>
      {data.id && data.printers?.length ? <PrintButton screen={data.screen} id={data.id} printers={data.printers} t={t} /> : null}
      {data.readonly.length ? (
        <section aria-label={t('Read-only fields')}>
          <FieldSummary fields={data.readonly.map((r) => ({ ...r, label: t(r.label) }))} className="text-sm" />
        </section>
      ) : null}
      {data.need && !form.errors?.length ? (
        <div role="alert" className="rounded-md border border-amber-500 bg-amber-950 p-3 text-amber-100">
          <p className="font-semibold">{t('More is needed to save this change')}</p>
          <p>{t(data.need)}</p>
        </div>
      ) : null}
      {form.status === 'error' || form.errors?.length ? <ErrorSummary errors={form.allErrors} formErrorId={form.errorId} targets={targets} t={t} /> : null}
      {marked ? <p className="text-sm text-slate-400">{t('Fields marked * are required.')}</p> : null}
      {/* multipart when a field takes a file: without JavaScript the file goes with the post */}
      <PostForm method="post" action={dialog?.action} preventScrollReset={!!dialog} encType={hasFile(data.schema.fields) ? 'multipart/form-data' : undefined} {...getFormProps(form)} className="flex flex-col gap-3">
        {/* Enter in a text field presses the form's first submit button (SPEC §2.6: it saves): this one, not a sub-table's Add row or Remove */}
        <button type="submit" tabIndex={-1} aria-hidden className="sr-only" disabled={busy}>
          {t('Save')}
        </button>
        {openedTs ? <input type="hidden" name="__ts" value={openedTs} /> : null}
        {sections.map((sec, i) => (
          <FormSectionBlock key={sec.title ?? i} title={sec.title === null ? null : t(sec.title)}>
            {sec.fields.map((f) => (
              <div key={f.key} className={isWideField(f) ? 'lg:col-span-2' : undefined}>
                {renderField(f)}
              </div>
            ))}
          </FormSectionBlock>
        ))}
        {/* the generic record fields every table takes (SPEC §3): Active for everyone who edits, the row locks for admin and super */}
        {flagKeys.length || showCts ? (
          <FormSectionBlock title={sections.some((x) => x.title) ? t('Record') : null}>
            {flagKeys.map((k) => {
              const meta = fields[k] as FieldMetadata<unknown>
              const f: FieldDef = { key: k, label: RECORD_FLAG_LABELS[k], type: 'check', pos: 0, align: 'left', show: true, ro: false, filter: false, sortable: false, required: false }
              return (
                <div key={k} className="flex flex-col gap-1">
                  <label htmlFor={meta.id} className="text-sm text-slate-300">
                    {t(f.label)}
                    {k === 'IsUsed' ? null : <span className="text-slate-500"> ({t('row lock')})</span>}
                  </label>
                  <FieldInput f={f} meta={meta} data={data} />
                  <Errors id={meta.errorId} errors={meta.errors} />
                </div>
              )
            })}
            {showCts && fields.cts ? (
              <div className="flex flex-col gap-1">
                <label htmlFor={fields.cts.id} className="text-sm text-slate-300">
                  {t('Record Created')}
                </label>
                <DateInput meta={fields.cts as FieldMetadata<string>} />
                <Errors id={fields.cts.errorId} errors={fields.cts.errors} />
              </div>
            ) : null}
          </FormSectionBlock>
        ) : null}
        {nested.map((f) => (
          <div key={f.key} className="text-sm text-slate-400">
            {f.label}: {formatCell(data.values[f.key], 'array')}
          </div>
        ))}
        {/* in the dialog the buttons stay in sight while a tall form scrolls */}
        <div className={`flex gap-3 pt-2 ${dialog ? 'sticky bottom-0 bg-slate-900 pb-1' : ''}`}>
          <BusyButton type="submit" busy={busy} busyText={t('Saving…')} className="min-h-11 rounded-md bg-canopy-600 px-5 font-medium text-white hover:bg-canopy-500">
            {t('Save')}
          </BusyButton>
          {dialog ? (
            <button type="button" onClick={dialog.onCancel} className="min-h-11 rounded-md border border-slate-600 px-4 hover:bg-slate-800">
              {t('Cancel')}
            </button>
          ) : (
            <Link to={data.back} className="inline-flex min-h-11 items-center rounded-md border border-slate-600 px-4 hover:bg-slate-800">
              {t('Cancel')}
            </Link>
          )}
          {data.page ? (
            <Link to={data.page} className="ml-auto inline-flex min-h-11 items-center text-canopy-400 underline">
              {t('Record page')}
            </Link>
          ) : null}
          {data.history ? (
            <Link to={data.history} className={`${data.page ? '' : 'ml-auto '}inline-flex min-h-11 items-center text-canopy-400 underline`}>
              {t('History')}
            </Link>
          ) : null}
        </div>
        {data.label ? <LabelLinks label={data.label} t={t} /> : null}
      </PostForm>
    </div>
  )
}

/**
 * The record's label (app/labels/): plain links, opened in a new tab, so they work without
 * JavaScript; the preview is the SVG, the PDF what a non-Zebra printer prints, the ZPL a Zebra's.
 */
function LabelLinks({ label, t }: { label: NonNullable<EditData['label']>; t: (k: string) => string }) {
  const link = 'inline-flex min-h-11 items-center text-canopy-400 underline'
  return (
    <nav aria-label={t('Label')} className="flex flex-wrap items-center gap-x-4 text-sm text-slate-400">
      <a href={label.svg} target="_blank" rel="noopener noreferrer" className={link}>
        {t('Label preview')}
      </a>
      <a href={label.pdf} target="_blank" rel="noopener noreferrer" className={link}>
        {t('Label PDF')}
      </a>
      <a href={label.zpl} target="_blank" rel="noopener noreferrer" className={link}>
        {t('Label ZPL')}
      </a>
      <span>
        {label.template}
        {label.printer ? ` · ${label.printer}` : ''}
      </span>
    </nav>
  )
}

/** The page of `/{screen}/new` and `/{screen}/{id}/edit`: both routes render it from the same loader. */
export function RecordPage() {
  const data = useLoaderData() as EditData
  const t = useT()
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {recordTitle(data.schema, !!data.id, t)}
      </h1>
      <RecordForm data={data} />
    </section>
  )
}

/**
 * One section of the edit form: a fieldset with its heading when the schema groups its fields, two
 * columns on a wide screen and one on a tablet (wide fields take both, see forms/form-sections.ts).
 */
function FormSectionBlock({ title, children }: { title: string | null; children: React.ReactNode }) {
  const grid = 'grid grid-cols-1 gap-3 lg:grid-cols-2'
  if (title === null) return <div className={grid}>{children}</div>
  return (
    <fieldset className={`${grid} border-t border-slate-700 pt-2`}>
      <legend className="px-1 text-base font-semibold text-canopy-400">{title}</legend>
      {children}
    </fieldset>
  )
}

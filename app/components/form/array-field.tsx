/**
 * An array sub-table in the edit form (SPEC §2.6): one row per item with an input per editable
 * column, the row's id in a hidden input (rows added here have none until the server saves them,
 * forms/row-ids.ts), a Remove button per row and an Add row button. The buttons are conform
 * intents: with JavaScript conform changes the rows in the browser; without it they post the form,
 * the action answers with the rows changed and saves nothing (record-edit.server.ts).
 */
import { getInputProps, type FieldMetadata, type FormMetadata } from '@conform-to/react'
import { isEditable } from '../../forms/record-schema'
import { useT } from '../../i18n/t'
import type { EditData } from '../../screens/record-edit.server'
import type { FieldDef } from '../../schemas/table-schema'
import { Errors, FieldInput } from './record-form'

type Row = Record<string, unknown>

const button = 'min-h-11 rounded-md border border-slate-600 px-3 hover:bg-slate-800'

export function ArrayField({ f, meta, form, data }: { f: FieldDef; meta: FieldMetadata<Row[]>; form: FormMetadata<Record<string, unknown>, string[]>; data: EditData }) {
  const t = useT()
  const cols = (f.array ?? []).filter((s) => isEditable(s) && s.key !== 'id')
  const rows = meta.getFieldList()
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={meta.errors?.length ? meta.errorId : undefined}>
      <legend className="text-sm text-slate-300">
        {f.label}
        {f.required ? <span aria-hidden> *</span> : null}
      </legend>
      {rows.length ? (
        <div className="relative overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr>
                {cols.map((s) => (
                  <th key={s.key} scope="col" className="px-1 text-left font-normal text-slate-400">
                    {s.label}
                    {s.required ? <span aria-hidden> *</span> : null}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">{t('Remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => {
                const parts = (row as unknown as FieldMetadata<Row>).getFieldset()
                const id = parts.id as FieldMetadata<string>
                return (
                  <tr key={row.key} className="align-top">
                    {cols.map((s) => {
                      const m = parts[s.key] as FieldMetadata<unknown>
                      return (
                        <td key={s.key} className="p-1">
                          <label htmlFor={m.id} className="sr-only">
                            {s.label}, {t('row')} {i + 1}
                          </label>
                          <FieldInput f={s} meta={m} data={data} />
                          <Errors id={m.errorId} errors={m.errors} />
                        </td>
                      )
                    })}
                    <td className="p-1">
                      {/* a stored row keeps its id; an added one has none until the server saves it */}
                      <input {...getInputProps(id, { type: 'hidden' })} />
                      <button {...form.remove.getButtonProps({ name: meta.name, index: i })} aria-label={`${t('Remove')} ${t('row')} ${i + 1}`} className={button}>
                        {t('Remove')}
                      </button>
                      {/* a row-level problem (a forged or duplicated id) has no input of its own to sit beside */}
                      <Errors id={row.errorId} errors={[...(row.errors ?? []), ...(id.errors ?? [])]} />
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-slate-400">{t('No rows yet.')}</p>
      )}
      <div>
        <button {...form.insert.getButtonProps({ name: meta.name })} aria-label={`${t('Add row')}: ${f.label}`} className={button}>
          {t('Add row')}
        </button>
      </div>
      <Errors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  )
}

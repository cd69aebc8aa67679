/**
 * A computed (`function`) field in the record form (SPEC §2.6): its value, never an input, and how it
 * is computed in the fields' own labels ("round(Dry Weight / Wet Weight × 100, 1)"). Without
 * JavaScript it shows the stored value (the server computes it on every save); with JavaScript it
 * follows the form as the user types, by the same formula code the server runs (schemas/formula.ts).
 */
import { useEffect, useMemo, useState } from 'react'
import type { EditData } from '../../screens/record-edit.server'
import { formatCell } from '../../format/format'
import { evaluateFormula, formulaFields, parseFormula } from '../../schemas/formula'
import type { FieldDef } from '../../schemas/table-schema'

export function ComputedField({ f, data, formId, t }: { f: FieldDef; data: EditData; formId: string; t: (s: string) => string }) {
  const stored = data.computed[f.key] ?? null
  const [value, setValue] = useState<number | null>(stored)
  const formula = useMemo(() => parseFormula(f.formula ?? ''), [f.formula])
  const names = useMemo(() => formulaFields(formula), [formula])
  useEffect(() => {
    const form = document.getElementById(formId)
    if (!(form instanceof HTMLFormElement)) return
    const update = () => {
      const fd = new FormData(form)
      const values: Record<string, unknown> = {}
      for (const n of names) {
        if (fd.has(`${n}.qty`)) values[n] = { qty: fd.get(`${n}.qty`), unit: fd.get(`${n}.unit`) }
        else if (fd.has(n)) values[n] = fd.getAll(n).at(-1)
        else values[n] = data.inputs[n]
      }
      setValue(evaluateFormula(formula, values))
    }
    update()
    form.addEventListener('input', update)
    form.addEventListener('change', update)
    return () => {
      form.removeEventListener('input', update)
      form.removeEventListener('change', update)
    }
  }, [formId, formula, names, data.inputs])
  const id = `${formId}-${f.key}`
  return (
    <div className="flex flex-col gap-1" data-testid={`computed-${f.key}`}>
      <span id={`${id}-label`} className="text-sm text-slate-300">
        {f.label}
      </span>
      <output id={id} aria-labelledby={`${id}-label`} aria-describedby={`${id}-how`} aria-live="polite" className="min-h-11 rounded-md border border-dashed border-slate-600 px-3 py-2 tabular-nums text-slate-100">
        {value === null ? '—' : formatCell(value, f.format ?? '')}
      </output>
      <span id={`${id}-how`} className="text-xs text-slate-400">
        {t('Computed from')}: {readable(f.formula ?? '', data.schema.fields, t)}
      </span>
    </div>
  )
}

/** The formula with field keys in their labels and × for *. */
function readable(src: string, fields: FieldDef[], t: (s: string) => string): string {
  return src.replace(/[A-Za-z_][A-Za-z0-9_]*(?!\s*\()/g, (k) => {
    const g = fields.find((x) => x.key === k)
    return g ? t(g.label) : k
  }).replace(/\*/g, '×')
}

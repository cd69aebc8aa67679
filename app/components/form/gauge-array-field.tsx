/**
 * A gaugearray field (SPEC §2.6): a list of readings, each a number input beside a gauge of where it sits
 * between the field's min and max (0–100 when the schema gives none). The inputs share the field's name,
 * so the post is the list; a blank one is dropped. Without JavaScript the form shows the stored readings and
 * one blank input for another; with it, "Add value" adds inputs and the gauges follow what is typed.
 */
import type { FieldMetadata } from '@conform-to/react'
import { useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { FieldDef } from '../../schemas/table-schema'

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x ?? '')) : v === undefined || v === null || v === '' ? [] : [String(v)])

export function GaugeArrayField({ f, meta, t, className }: { f: FieldDef; meta: FieldMetadata<unknown>; t: (k: string) => string; className: string }) {
  const hydrated = useHydrated()
  const [values, setValues] = useState<string[]>(() => [...asList(meta.initialValue).filter((v) => v !== ''), ''])
  const min = f.min ?? 0
  const max = f.max ?? 100
  return (
    <span className="flex flex-col gap-2">
      {values.map((v, i) => {
        const n = Number(v)
        return (
          <span key={i} className="flex items-center gap-3">
            <input
              type="text"
              inputMode="decimal"
              id={i === 0 ? meta.id : undefined}
              name={meta.name}
              defaultValue={v}
              aria-label={`${f.label} ${i + 1}`}
              aria-invalid={meta.errors?.length ? true : undefined}
              aria-describedby={meta.errors?.length ? meta.errorId : undefined}
              onInput={(e) => {
                const x = e.currentTarget.value
                setValues((vs) => vs.map((y, j) => (j === i ? x : y)))
              }}
              className={`${className} w-32`}
            />
            <meter min={min} max={max} low={min + (max - min) * 0.25} high={min + (max - min) * 0.75} value={v !== '' && Number.isFinite(n) ? n : min} aria-label={`${f.label} ${i + 1}: ${v || '—'}`} className="h-5 flex-1" />
          </span>
        )
      })}
      {hydrated ? (
        <button type="button" className="min-h-11 self-start rounded-md border border-slate-600 px-3 py-2 text-sm" onClick={() => setValues((vs) => [...vs, ''])}>
          {t('Add value')}
        </button>
      ) : null}
    </span>
  )
}

/**
 * Rights as a grid: one row per facility, one checkbox per module (only what the manager may
 * grant there is offered). Posted as m:{facility}:{code}=yes; plain checkboxes, so it works
 * without JavaScript; with it, a row's "All" box ticks or clears the row.
 */
import { useEffect, useState } from 'react'

export interface GridFacility {
  org: string
  fullName: string
  grantable: string[]
}

export function RightsGrid({ facilities, modules, value, error }: { facilities: GridFacility[]; modules: Array<{ code: string; name: string }>; value: Record<string, string[] | null>; error?: string }) {
  const shown = modules.filter((m) => facilities.some((f) => f.grantable.includes(m.code)))
  const [js, setJs] = useState(false)
  useEffect(() => setJs(true), [])
  const start = (org: string, code: string) => {
    const v = value[org]
    return v === null ? org in value : (v ?? []).includes(code)
  }
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? 'grid-error' : undefined}>
      <legend className="mb-1 text-sm text-slate-300">Facilities and modules</legend>
      <div className="overflow-x-auto rounded-md border border-slate-700">
        <table className="min-w-full text-sm" aria-label="Rights">
          <thead>
            <tr>
              <th scope="col" className="sticky left-0 bg-slate-900 p-2 text-left">
                Facility
              </th>
              {shown.map((m) => (
                <th key={m.code} scope="col" className="p-2 text-center font-normal text-slate-300">
                  {m.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {facilities.map((f) => (
              <tr key={f.org} className="border-t border-slate-800">
                <th scope="row" className="sticky left-0 bg-slate-900 p-2 text-left font-medium">
                  {f.fullName}
                  {js ? (
                    <label className="ml-2 inline-flex min-h-11 items-center gap-1 text-xs text-slate-400">
                      <input
                        type="checkbox"
                        className="h-5 w-5"
                        aria-label={`All modules in ${f.fullName}`}
                        onChange={(e) => {
                          const row = e.currentTarget.closest('tr')
                          row?.querySelectorAll<HTMLInputElement>('input[name^="m:"]').forEach((i) => (i.checked = e.currentTarget.checked))
                        }}
                      />
                      All
                    </label>
                  ) : null}
                </th>
                {shown.map((m) => (
                  <td key={m.code} className="p-1 text-center">
                    {f.grantable.includes(m.code) ? (
                      <label className="inline-flex h-11 w-11 items-center justify-center">
                        <input type="checkbox" name={`m:${f.org}:${m.code}`} value="yes" defaultChecked={start(f.org, m.code)} aria-label={`${m.name} in ${f.fullName}`} className="h-5 w-5" />
                      </label>
                    ) : (
                      <span className="text-slate-600" title="Not yours to grant here">
                        —
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error ? (
        <p id="grid-error" role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

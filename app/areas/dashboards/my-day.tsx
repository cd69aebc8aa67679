/** The start page's "my day": today's tasks, alerts and dashboard tiles (app/areas/dashboards/my-day.server.ts). */
import { KpiTile } from './charts/kpi-tile'
import type { MyDay } from './my-day.server'
import { WarningIcon } from '../../components/icons'

export function MyDayView({ day }: { day: MyDay | null }) {
  if (!day) return null
  return (
    <section aria-label="My day" className="flex flex-col gap-3" data-testid="my-day">
      {day.alerts.length ? (
        <ul aria-label="Alerts" className="flex flex-col gap-1">
          {day.alerts.map((a) => (
            <li key={a.text}>
              <a href={a.href} className={`flex min-h-[44px] items-center rounded-md border px-3 text-sm ${a.tone === 'bad' ? 'border-red-600 text-red-400' : 'border-amber-600 text-amber-300'}`}>
                <WarningIcon /> <span className="ml-2">{a.text}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="rounded-lg border border-slate-800 p-3">
        <h2 className="mb-2 font-semibold text-slate-200">
          {day.mine ? 'My tasks today' : 'Tasks today'} <a href={`/SchCalendar?view=day${day.mine ? '&mine=1' : ''}`} className="ml-2 text-sm font-normal text-canopy-400 hover:underline">Open the calendar</a>
        </h2>
        {day.tasks.length ? (
          <ul className="flex flex-col gap-1 text-sm">
            {day.tasks.map((t) => (
              <li key={`${t.id}-${t.time}`} className="flex gap-2">
                <span className="w-16 shrink-0 text-slate-400">{t.time}</span>
                <a href={`/SchCalendar?view=day&edit=${encodeURIComponent(t.id)}&on=${day.today}`} className="text-canopy-400 hover:underline">
                  {t.title}
                </a>
                <span className="text-slate-400">{t.room}</span>
                {t.overdue ? <strong className="text-red-500">Overdue</strong> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-400">Nothing planned for today.</p>
        )}
      </div>
      {day.tiles.length ? (
        <div className="flex flex-wrap gap-3" aria-label="Dashboard tiles">
          {day.tiles.map((k) => (
            <KpiTile key={k.label} kpi={k} />
          ))}
        </div>
      ) : null}
    </section>
  )
}

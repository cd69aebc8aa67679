/**
 * /SchCalendar (decision 043): month, week, day and agenda views; every control a link or a
 * form, so it works without JavaScript. With JavaScript a task can be dragged to another day
 * (the same move post the form makes). Tasks are coloured by category; overdue ones say so.
 */
import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState, type DragEvent } from 'react'
import type { CalData, CalItem } from './calendar.server'
import { CAL, FIRST_HOUR, HOUR_PX, LAST_HOUR, MIN_TASK_PX, VIEWS } from './grid'
import { MINUTE_STEP } from '../../forms/record-schema'
import { WEEKDAYS } from './recur'

const btn = 'inline-flex min-h-[44px] items-center justify-center rounded-md border border-slate-600 px-3 text-sm hover:bg-slate-800'
const btnOn = 'inline-flex min-h-[44px] items-center justify-center rounded-md border border-canopy-500 bg-canopy-900 px-3 text-sm text-canopy-50'
const field = 'min-h-[44px] rounded-md border border-slate-600 bg-slate-950 px-2 text-sm text-slate-100'

/** one colour per category, readable on both themes */
const SERIES_COLOURS = ['#22c55e', '#3b82f6', '#f59e0b', '#a855f7', '#ef4444', '#14b8a6', '#ec4899', '#84cc16', '#64748b', '#f97316', '#06b6d4']
const colourOf = (cats: readonly string[], c: string) => SERIES_COLOURS[Math.max(0, cats.indexOf(c)) % SERIES_COLOURS.length]

function useHere() {
  const { pathname, search } = useLocation()
  const here = `${pathname}${search}`
  const with_ = (change: Record<string, string | undefined>) => {
    const p = new URLSearchParams(search)
    p.delete('msg')
    if (!('edit' in change)) p.delete('on')
    if (!('at' in change)) p.delete('at')
    for (const [k, v] of Object.entries(change)) {
      if (v) p.set(k, v)
      else p.delete(k)
    }
    const s = p.toString()
    return `${CAL}${s ? `?${s}` : ''}`
  }
  return { here, with_ }
}

/** An item of another area (a CRM follow-up): a link to its own record, dashed, labelled, not dragged. */
function SourceItem({ t, compact, fill }: { t: CalItem; compact?: boolean; fill?: boolean }) {
  return (
    <Link
      to={t.href ?? CAL}
      data-task={t.id}
      data-kind={t.kind}
      data-day={t.day}
      data-overdue={t.overdue ? 'yes' : 'no'}
      className={`flex flex-col overflow-hidden rounded border border-dashed border-amber-500 bg-amber-950/40 px-1 py-0.5 text-left text-xs leading-tight text-slate-100 hover:bg-amber-900/40 ${fill ? 'h-full' : 'min-h-[32px]'}`}
      title={`${t.kindLabel ?? ''}: ${t.title}${t.assignee ? ` · ${t.assignee}` : ''}${t.overdue ? ' · overdue' : ''}`}
    >
      <span className="truncate font-medium">
        <span className="mr-1 rounded bg-amber-600 px-1 text-[10px] uppercase text-slate-950">{t.kindLabel}</span>
        {t.title}
      </span>
      <span className="truncate text-slate-400">
        {t.status}
        {!compact && t.assignee ? ` · ${t.assignee}` : ''}
        {t.overdue ? <strong className="ml-1 text-red-300">Overdue</strong> : null}
      </span>
    </Link>
  )
}

function Task({ t, data, compact, fill }: { t: CalItem; data: CalData; compact?: boolean; fill?: boolean }) {
  if (t.kind) return <SourceItem t={t} compact={compact} fill={fill} />
  return <TaskLink t={t} data={data} compact={compact} fill={fill} />
}

function TaskLink({ t, data, compact, fill }: { t: CalItem; data: CalData; compact?: boolean; fill?: boolean }) {
  const { with_ } = useHere()
  const onDrag = (e: DragEvent<HTMLElement>) => {
    // where in the task it was grabbed: on the hourly grid the task's top lands where that point is dropped
    const grabY = Math.round(e.clientY - e.currentTarget.getBoundingClientRect().top)
    e.dataTransfer.setData('application/x-canopy-task', JSON.stringify({ id: t.id, ts: t.ts, from: t.start, startTime: t.startTime, endTime: t.endTime, allDay: t.allDay, day: t.day, endDay: t.endDay, recurring: t.recurring, title: t.title, grabY }))
    e.dataTransfer.effectAllowed = 'move'
  }
  return (
    <Link
      to={with_({ edit: t.id, on: t.day, new: undefined })}
      draggable
      onDragStart={onDrag}
      data-task={t.id}
      data-day={t.day}
      data-overdue={t.overdue ? 'yes' : 'no'}
      className={`flex flex-col overflow-hidden rounded border-l-4 bg-slate-800 px-1 py-0.5 text-left text-xs leading-tight text-slate-100 hover:bg-slate-700 ${fill ? 'h-full' : 'min-h-[32px]'}`}
      style={{ borderLeftColor: colourOf(data.categories, t.category) }}
      title={`${t.title} · ${t.time} · ${t.category}${t.assignee ? ` · ${t.assignee}` : ''}${t.overdue ? ' · overdue' : ''}`}
    >
      <span className="truncate font-medium">
        {t.recurring ? <span aria-label="repeats">↻ </span> : null}
        {t.title}
      </span>
      <span className="truncate text-slate-400">
        {t.time}
        {!compact && t.assignee ? ` · ${t.assignee}` : ''}
        {!compact && t.roomName ? ` · ${t.roomName}` : ''}
        {t.overdue ? <strong className="ml-1 text-red-300">Overdue</strong> : null}
      </span>
    </Link>
  )
}

type Move = Record<string, string>

/**
 * With JavaScript, a drag (or a resize) of one day of a repeating task asks what to move: only
 * this day, or the whole series (the same two choices as the form). A native modal dialog: focus
 * starts on the first choice, Escape or Cancel closes it, every button 44 px.
 */
function ScopeDialog({ title, day, onChoose, onCancel }: { title: string; day: string; onChoose: (scope: 'day' | 'series') => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  return (
    <dialog ref={ref} onClose={onCancel} aria-labelledby="scope-title" className="rounded-lg border border-slate-600 bg-slate-900 p-4 text-slate-100 backdrop:bg-black/60" data-testid="scope-dialog">
      <h2 id="scope-title" className="text-lg font-semibold">
        Move “{title}”
      </h2>
      <p className="mb-3 text-sm text-slate-300">It repeats. Move only {day}, or every day of it?</p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={btnOn} onClick={() => onChoose('day')}>
          Only this day
        </button>
        <button type="button" className={btn} onClick={() => onChoose('series')}>
          The whole series
        </button>
        <button type="button" className={btn} onClick={() => ref.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}

/** Posts a move (a drag or a resize); a day of a repeating task asks first which to move. */
function useMove() {
  const fetcher = useFetcher<{ error?: string }>()
  const [ask, setAsk] = useState<{ post: Move; title: string } | null>(null)
  const send = (post: Move) => fetcher.submit(post, { method: 'post', action: CAL })
  const move = (post: Move, t: { recurring?: boolean; title?: string }) => (t.recurring ? setAsk({ post, title: t.title ?? '' }) : void send(post))
  const dialog = ask ? (
    <ScopeDialog
      title={ask.title}
      day={ask.post.on}
      onChoose={(scope) => {
        setAsk(null)
        send({ ...ask.post, scope })
      }}
      onCancel={() => setAsk(null)}
    />
  ) : null
  const error = fetcher.state === 'idle' && fetcher.data?.error ? (
    <p role="alert" className="rounded border border-red-600 p-1 text-xs text-red-400">
      {fetcher.data.error}
    </p>
  ) : null
  return { move, dialog, error }
}

/**
 * A day as a drop target (JavaScript): highlighted while a task is over it; a drop moves the task
 * there. On the hourly grid (`grid`), the drop's height gives the time it starts, snapped to the
 * date picker's step (also when it lands on another task).
 */
function useDayDrop(day: string, move: ReturnType<typeof useMove>['move'], back: string, grid?: boolean) {
  const [over, setOver] = useState(false)
  const dropProps = {
    onDragOver: (e: DragEvent) => {
      e.preventDefault()
      setOver(true)
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent<HTMLElement>) => {
      setOver(false)
      e.stopPropagation()
      if (!grid) return dropOnDay(e, day, move, back)
      const box = e.currentTarget.getBoundingClientRect()
      const raw = e.dataTransfer.getData('application/x-canopy-task')
      const grabY = raw ? Number((JSON.parse(raw) as { grabY?: number }).grabY) || 0 : 0
      const steps = Math.round((((e.clientY - grabY - box.top) / HOUR_PX) * 60) / MINUTE_STEP)
      const minute = Math.min(LAST_HOUR * 60 - MINUTE_STEP, Math.max(FIRST_HOUR * 60, FIRST_HOUR * 60 + steps * MINUTE_STEP))
      dropOnDay(e, day, move, back, toHHMM(minute))
    },
  }
  return { over, dropProps }
}

type Dragged = { id: string; ts: string; from: string; startTime: string; endTime: string; allDay: boolean; day: string; endDay: string; recurring?: boolean; title?: string }
const wall = (day: string, time: string) => Date.parse(`${day}T${time || '00:00'}:00Z`)

/**
 * A task dropped on a day (JavaScript): the same `move` post as the form, on the new day, its
 * length kept. Dropped on an hour (`at`), it starts then: a timed task keeps its length, an
 * all-day one becomes an hour long.
 */
function dropOnDay(e: DragEvent, day: string, move: ReturnType<typeof useMove>['move'], back: string, at?: string) {
  e.preventDefault()
  const raw = e.dataTransfer.getData('application/x-canopy-task')
  if (!raw) return
  const t = JSON.parse(raw) as Dragged
  if (at === undefined) {
    if (t.day === day) return
    const span = (Date.parse(`${t.endDay}T00:00:00Z`) - Date.parse(`${t.day}T00:00:00Z`)) / 86_400_000
    const endDay = new Date(Date.parse(`${day}T00:00:00Z`) + span * 86_400_000).toISOString().slice(0, 10)
    return move({ intent: 'move', id: t.id, ts: t.ts, from: t.from, on: t.day, day, time: t.startTime, endDay, endTime: t.endTime, allDay: t.allDay ? 'yes' : 'no', back }, t)
  }
  if (!t.allDay && t.day === day && t.startTime === at) return
  const length = t.allDay ? 3_600_000 : Math.max(MINUTE_STEP * 60_000, wall(t.endDay, t.endTime) - wall(t.day, t.startTime))
  const end = new Date(wall(day, at) + length).toISOString()
  move({ intent: 'move', id: t.id, ts: t.ts, from: t.from, on: t.day, day, time: at, endDay: end.slice(0, 10), endTime: end.slice(11, 16), allDay: 'no', back }, t)
}

function Day({ day, data, items, big }: { day: string; data: CalData; items: CalItem[]; big?: boolean }) {
  const { with_ } = useHere()
  const { move, dialog, error } = useMove()
  const { over, dropProps } = useDayDrop(day, move, with_({}))
  const out = data.view === 'month' && day.slice(0, 7) !== data.date.slice(0, 7)
  return (
    <div
      className={`flex min-h-[7rem] flex-col gap-1 border border-slate-700 p-1 ${out ? 'bg-slate-900/40' : ''} ${over ? 'bg-canopy-900/40' : ''} ${day === data.today ? 'ring-2 ring-inset ring-canopy-500' : ''}`}
      data-cell={day}
      {...dropProps}
    >
      <div className="flex items-center justify-between">
        <Link to={with_({ view: 'day', date: day, edit: undefined, new: undefined })} className="min-h-[32px] min-w-[32px] px-1 text-sm font-semibold text-slate-300" aria-label={`${Number(day.slice(8))} (${day})`}>
          {Number(day.slice(8))}
        </Link>
        <Link to={with_({ new: day, edit: undefined })} className="inline-flex h-8 w-8 items-center justify-center rounded text-lg text-slate-400 hover:bg-slate-800" aria-label={`New task on ${day}`} data-new={day}>
          +
        </Link>
      </div>
      {items.map((t) => (
        <Task key={`${t.id}-${t.day}`} t={t} data={data} compact={!big} />
      ))}
      {error}
      {dialog}
    </div>
  )
}

const HOURS = Array.from({ length: LAST_HOUR - FIRST_HOUR }, (_, i) => FIRST_HOUR + i)
const hh = (h: number) => `${String(h).padStart(2, '0')}:00`
const CHIP_PX = 48

const toHHMM = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`

/**
 * A task in the hourly grid. With JavaScript its bottom edge is a handle: dragging it changes the
 * end (snapped to the date picker's MINUTE_STEP, SPEC §9) and posts the same move the form does
 * (a day of a repeating task asks first). Without JavaScript there is no handle: the form's end.
 */
function GridTask({ t, data, move }: { t: CalItem; data: CalData; move: (post: Move, t: CalItem) => void }) {
  const { with_ } = useHere()
  const [live, setLive] = useState(false)
  const [drag, setDrag] = useState<{ y0: number; dy: number } | null>(null)
  useEffect(() => setLive(true), [])
  const slot = t.slot!
  const startMin = Number(t.startTime.slice(0, 2)) * 60 + Number(t.startTime.slice(3, 5))
  const endMin = t.endDay > t.day ? 1440 : Number(t.endTime.slice(0, 2)) * 60 + Number(t.endTime.slice(3, 5))
  const newEnd = (dy: number) => Math.min(1440, Math.max(startMin + MINUTE_STEP, endMin + Math.round((dy / HOUR_PX) * (60 / MINUTE_STEP)) * MINUTE_STEP))
  const height = (slot.height / 60) * HOUR_PX + (drag ? ((newEnd(drag.dy) - endMin) / 60) * HOUR_PX : 0)
  const finish = (dy: number) => {
    setDrag(null)
    const end = newEnd(dy)
    if (end === endMin) return
    const endDay = end === 1440 ? new Date(Date.parse(`${t.day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) : t.day
    move({ intent: 'move', id: t.id, ts: t.ts, from: t.start, on: t.day, day: t.day, time: t.startTime, endDay, endTime: toHHMM(end), allDay: 'no', back: with_({}) }, t)
  }
  return (
    <div
      className="absolute px-px"
      style={{ top: (slot.top / 60) * HOUR_PX, height: Math.max(MIN_TASK_PX, height), left: `${(slot.lane / slot.lanes) * 100}%`, width: `calc(${100 / slot.lanes}% - 12px)`, zIndex: drag ? 10 : undefined }}
      data-placed={t.id}
    >
      <Task t={t} data={data} compact fill />
      {live ? (
        <div
          className="absolute -bottom-1.5 left-0 right-0 flex h-5 cursor-ns-resize touch-none items-center justify-center rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-canopy-400"
          title={drag ? `Ends ${toHHMM(newEnd(drag.dy))}` : 'Drag to change the end (or focus it: arrow keys, then Enter)'}
          role="slider"
          tabIndex={0}
          aria-label={`End of ${t.title}`}
          aria-valuemin={startMin + MINUTE_STEP}
          aria-valuemax={1440}
          aria-valuenow={drag ? newEnd(drag.dy) : endMin}
          aria-valuetext={`Ends ${toHHMM(drag ? newEnd(drag.dy) : endMin)}${drag ? ', Enter saves, Escape cancels' : ''}`}
          data-resize={t.id}
          // the keyboard's way: arrows move the end by the picker's step, Enter saves, Escape or leaving cancels
          onKeyDown={(e) => {
            const step = (MINUTE_STEP / 60) * HOUR_PX
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault()
              const dy = (drag?.dy ?? 0) + (e.key === 'ArrowDown' ? step : -step)
              setDrag({ y0: 0, dy: (newEnd(dy) - endMin) * (HOUR_PX / 60) })
            } else if (e.key === 'Enter' && drag) {
              e.preventDefault()
              finish(drag.dy)
            } else if (e.key === 'Escape' && drag) {
              e.preventDefault()
              setDrag(null)
            }
          }}
          onBlur={() => setDrag(null)}
          onPointerDown={(e) => {
            e.preventDefault()
            e.stopPropagation()
            e.currentTarget.setPointerCapture(e.pointerId)
            setDrag({ y0: e.clientY, dy: 0 })
          }}
          onPointerMove={(e) => drag && setDrag({ ...drag, dy: e.clientY - drag.y0 })}
          onPointerUp={(e) => drag && finish(e.clientY - drag.y0)}
          onPointerCancel={() => setDrag(null)}
        >
          <span className="h-1 w-8 rounded bg-slate-400" />
          {drag ? <span className="absolute -bottom-5 rounded bg-slate-950 px-1 text-xs text-slate-100">{toHHMM(newEnd(drag.dy))}</span> : null}
        </div>
      ) : null}
    </div>
  )
}

/** One day's column of the hourly grid: its header, band, Earlier row, hour rows and Later row. */
function HourColumn({ day, data, items, rows }: { day: string; data: CalData; items: CalItem[]; rows: { band: number; early: number; late: number } }) {
  const { with_ } = useHere()
  const { move, dialog, error } = useMove()
  const { over, dropProps } = useDayDrop(day, move, with_({}))
  const gridDrop = useDayDrop(day, move, with_({}), true)
  const col = data.days.indexOf(day)
  const of = (kind: string) => items.filter((t) => t.slot?.kind === kind && (kind === 'band' ? t.slot.col <= col && col < t.slot.col + t.slot.span : t.slot.col === col))
  const chips = (list: CalItem[], n: number, label: string) =>
    n ? (
      <div className="flex flex-col gap-1 border-b border-slate-700 p-0.5" style={{ minHeight: n * CHIP_PX }} aria-label={`${label} ${day}`}>
        {list.map((t) => (
          <Task key={`${t.id}-${t.day}`} t={t} data={data} compact />
        ))}
      </div>
    ) : null
  return (
    <div
      className={`flex min-w-0 flex-col border-l border-slate-700 ${over ? 'bg-canopy-900/40' : ''} ${day === data.today ? 'bg-canopy-950/40' : ''}`}
      data-cell={day}
      {...dropProps}
    >
      <div className={`flex h-11 items-center justify-between border-b border-slate-700 ${day === data.today ? 'text-canopy-400' : 'text-slate-300'}`}>
        <Link to={with_({ view: 'day', date: day, edit: undefined, new: undefined, at: undefined })} className="inline-flex min-h-[44px] min-w-0 items-center truncate px-1 text-sm font-semibold" aria-label={`Day ${day}`}>
          {['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${day}T00:00:00Z`).getUTCDay()]} {Number(day.slice(8))}
        </Link>
        <Link to={with_({ new: day, edit: undefined, at: undefined })} className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded text-lg text-slate-400 hover:bg-slate-800" aria-label={`New task on ${day}`} data-new={day}>
          +
        </Link>
      </div>
      {chips(of('band'), rows.band, 'All day')}
      {chips(of('early'), rows.early, 'Earlier')}
      <div className={`relative ${gridDrop.over ? 'bg-canopy-900/40' : ''}`} style={{ height: HOURS.length * HOUR_PX }} data-grid={day} {...gridDrop.dropProps}>
        {HOURS.map((h) => (
          <Link
            key={h}
            to={with_({ new: day, at: hh(h), edit: undefined })}
            className="group block border-t border-slate-800 px-1 text-right text-xs text-slate-600 hover:bg-slate-800/60"
            style={{ height: HOUR_PX }}
            aria-label={`New task on ${day} at ${hh(h)}`}
            data-slot={`${day}T${hh(h)}`}
          >
            <span aria-hidden="true">+</span>
          </Link>
        ))}
        {of('grid').map((t) => (
          <GridTask key={`${t.id}-${t.day}`} t={t} data={data} move={move} />
        ))}
      </div>
      {chips(of('late'), rows.late, 'Later')}
      {error}
      {dialog}
    </div>
  )
}

/** The week and day views: an hour per row (FIRST_HOUR–LAST_HOUR) in the facility's zone, all-day and multi-day tasks in a band at the top, earlier and later tasks in their own rows. */
function HourGrid({ data }: { data: CalData }) {
  const count = (kind: string) => Math.max(0, ...data.days.map((_, c) => data.items.filter((t) => t.slot?.kind === kind && (kind === 'band' ? t.slot.col <= c && c < t.slot.col + t.slot.span : t.slot.col === c)).length))
  const rows = { band: count('band'), early: count('early'), late: count('late') }
  const gutter = (n: number, label: string) => (n ? <div className="border-b border-slate-700 pr-1 text-right text-xs text-slate-400" style={{ minHeight: n * CHIP_PX }}>{label}</div> : null)
  return (
    <div data-testid={`${data.view}-grid`} className="grid" style={{ gridTemplateColumns: `3rem repeat(${data.days.length}, minmax(0, 1fr))` }}>
      <div className="flex flex-col" aria-hidden="true">
        <div className="h-11 border-b border-slate-700" />
        {gutter(rows.band, 'All day')}
        {gutter(rows.early, 'Earlier')}
        {HOURS.map((h) => (
          <div key={h} className="border-t border-slate-800 pr-1 text-right text-xs text-slate-400" style={{ height: HOUR_PX }}>
            {hh(h)}
          </div>
        ))}
        {gutter(rows.late, 'Later')}
      </div>
      {data.days.map((d) => (
        <HourColumn key={d} day={d} data={data} items={data.items} rows={rows} />
      ))}
    </div>
  )
}

function Views({ data }: { data: CalData }) {
  if (data.view === 'week' || data.view === 'day') return <HourGrid data={data} />
  // a task shows on every day of the view it covers (a task that began before the view, from its first day)
  const byDay = new Map<string, CalItem[]>()
  for (const t of data.items) for (const d of data.days) if (d >= t.day && d <= (t.endDay > t.day ? t.endDay : t.day)) byDay.set(d, [...(byDay.get(d) ?? []), t])
  if (data.view === 'agenda') {
    const days = data.days.filter((d) => byDay.has(d))
    return (
      <ol className="flex flex-col gap-3" data-testid="agenda">
        {days.length ? null : <li className="text-slate-400">No tasks in these 30 days.</li>}
        {days.map((d) => (
          <li key={d} data-cell={d}>
            <h3 className="text-sm font-semibold text-slate-300">{d}</h3>
            <div className="flex flex-col gap-1">
              {byDay.get(d)!.map((t) => (
                <Task key={`${t.id}-${d}`} t={t} data={data} />
              ))}
            </div>
          </li>
        ))}
      </ol>
    )
  }
  return (
    <div data-testid="month-grid">
      <div className="grid grid-cols-7 text-center text-xs text-slate-400" aria-hidden="true">
        {['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map((d) => (
          <div key={d}>{d}</div>
        ))}
      </div>
      <div className="grid grid-cols-7">
        {data.days.map((d) => (
          <Day key={d} day={d} data={data} items={byDay.get(d) ?? []} />
        ))}
      </div>
    </div>
  )
}

function Filters({ data }: { data: CalData }) {
  const { with_ } = useHere()
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Filters">
      {data.view !== 'month' ? <input type="hidden" name="view" value={data.view} /> : null}
      {data.date !== data.today ? <input type="hidden" name="date" value={data.date} /> : null}
      <label className="flex flex-col text-xs text-slate-400">
        Assignee
        <select name="assignee" defaultValue={data.filters.assignee} className={field}>
          <option value="">Everyone</option>
          {data.assignees.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-xs text-slate-400">
        Room
        <select name="room" defaultValue={data.filters.room} className={field}>
          <option value="">Every room</option>
          {data.rooms.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col text-xs text-slate-400">
        Category
        <select name="category" defaultValue={data.filters.category} className={field}>
          <option value="">Every category</option>
          {data.filterCategories.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <button type="submit" className={btn}>
        Filter
      </button>
      <Link to={with_({ mine: data.filters.mine ? undefined : '1' })} className={data.filters.mine ? btnOn : btn} aria-current={data.filters.mine ? 'true' : undefined}>
        My tasks
      </Link>
    </Form>
  )
}

function CreateForm({ data }: { data: CalData }) {
  const { here, with_ } = useHere()
  const day = data.create!
  const at = data.createAt ?? '08:00'
  const end = `${String(Math.min(23, Number(at.slice(0, 2)) + 1)).padStart(2, '0')}:${Number(at.slice(0, 2)) >= 23 ? '59' : at.slice(3, 5)}`
  return (
    <Form key={`${day}-${at}`} method="post" action={CAL} className="flex flex-col gap-2" aria-label="New task">
      <input type="hidden" name="intent" value="create" />
      <input type="hidden" name="back" value={here} />
      <h2 className="text-lg font-semibold text-slate-100">New task</h2>
      <label className="flex flex-col text-sm">
        Title
        <input name="title" required maxLength={200} className={field} />
      </label>
      <div className="grid grid-cols-2 gap-2">
        <label className="flex flex-col text-sm">
          Day
          <input type="date" name="day" defaultValue={day} required className={field} />
        </label>
        <label className="flex flex-col text-sm">
          Start time
          <input type="time" name="time" defaultValue={at} className={field} />
        </label>
        <label className="flex flex-col text-sm">
          End day
          <input type="date" name="endDay" defaultValue={day} className={field} />
        </label>
        <label className="flex flex-col text-sm">
          End time
          <input type="time" name="endTime" defaultValue={end} className={field} />
        </label>
      </div>
      <label className="inline-flex min-h-[44px] items-center gap-2 text-sm">
        <input type="checkbox" name="allDay" value="yes" className="h-5 w-5" /> All day
      </label>
      <div className="grid grid-cols-2 gap-2">
        <label className="flex flex-col text-sm">
          Assignee
          <input name="assignee" list="cal-assignees" defaultValue={data.me} className={field} />
          <datalist id="cal-assignees">
            {data.assignees.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        <label className="flex flex-col text-sm">
          Room
          <select name="room" defaultValue={data.filters.room} className={field}>
            <option value="">(none)</option>
            {data.rooms.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Category
          <select name="category" defaultValue={data.filters.category || data.categories[0]} className={field}>
            {data.categories.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Priority
          <select name="priority" defaultValue="Normal" className={field}>
            {data.priorities.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="flex flex-col gap-1 rounded border border-slate-700 p-2">
        <legend className="text-sm">Repeat</legend>
        <select name="repeat" defaultValue="none" className={field} aria-label="Repeat">
          <option value="none">Does not repeat</option>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly on the days ticked</option>
          <option value="monthly">Monthly on this day</option>
        </select>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Weekdays">
          {WEEKDAYS.map((d) => (
            <label key={d} className="inline-flex min-h-[44px] items-center gap-1 text-sm">
              <input type="checkbox" name="byday" value={d} className="h-5 w-5" /> {d}
            </label>
          ))}
        </div>
        <label className="flex flex-col text-sm">
          Until (optional)
          <input type="date" name="until" className={field} />
        </label>
      </fieldset>
      <label className="flex flex-col text-sm">
        Notes
        <textarea name="notes" rows={2} className={field} />
      </label>
      <div className="flex gap-2">
        <button type="submit" className={btnOn}>
          Add task
        </button>
        <Link to={with_({ new: undefined, at: undefined })} className={btn}>
          Cancel
        </Link>
      </div>
    </Form>
  )
}

function EditForm({ data }: { data: CalData }) {
  const { here, with_ } = useHere()
  const t = data.edit!
  return (
    <div className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold text-slate-100">{t.title}</h2>
      <p className="text-sm text-slate-300">
        {t.category} · {t.status} · {t.assignee || 'nobody'} {t.roomName ? `· ${t.roomName}` : ''} {t.overdue ? <strong className="text-red-500">· Overdue</strong> : null}
        {t.repeat ? <span className="block text-xs text-slate-400">Repeats: {t.repeat}{t.except.length ? ` · skips ${t.except.join(', ')}` : ''}</span> : null}
      </p>
      <Form key={`${t.id}-${t.day}`} method="post" action={CAL} className="flex flex-col gap-2" aria-label="Move task">
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="back" value={here} />
        <input type="hidden" name="id" value={t.id} />
        <input type="hidden" name="ts" value={t.ts} />
        <input type="hidden" name="from" value={t.start} />
        <div className="grid grid-cols-2 gap-2">
          <label className="flex flex-col text-sm">
            Day
            <input type="date" name="day" defaultValue={t.day} required className={field} />
          </label>
          <label className="flex flex-col text-sm">
            Start time
            <input type="time" name="time" defaultValue={t.startTime} className={field} />
          </label>
          <label className="flex flex-col text-sm">
            End day
            <input type="date" name="endDay" defaultValue={t.endDay} className={field} />
          </label>
          <label className="flex flex-col text-sm">
            End time
            <input type="time" name="endTime" defaultValue={t.endTime} className={field} />
          </label>
        </div>
        <label className="inline-flex min-h-[44px] items-center gap-2 text-sm">
          <input type="checkbox" name="allDay" value="yes" defaultChecked={t.allDay} className="h-5 w-5" /> All day
        </label>
        {t.recurring ? (
          <fieldset className="flex flex-col rounded border border-slate-700 p-2">
            <legend className="text-sm">It repeats: move</legend>
            <input type="hidden" name="on" value={t.day} />
            <label className="inline-flex min-h-[44px] items-center gap-2 text-sm">
              <input type="radio" name="scope" value="series" defaultChecked className="h-5 w-5" /> The whole series (every day by the same amount)
            </label>
            <label className="inline-flex min-h-[44px] items-center gap-2 text-sm">
              <input type="radio" name="scope" value="day" className="h-5 w-5" /> Only this day ({t.day})
            </label>
          </fieldset>
        ) : null}
        <button type="submit" className={btnOn}>
          Move task
        </button>
      </Form>
      {t.recurring ? (
        <Form method="post" action={CAL}>
          <input type="hidden" name="intent" value="skip" />
          <input type="hidden" name="back" value={here} />
          <input type="hidden" name="id" value={t.id} />
          <input type="hidden" name="day" value={t.day} />
          <button type="submit" className={btn}>
            Skip {t.day} only
          </button>
        </Form>
      ) : null}
      <div className="flex gap-2">
        <Link to={`/SchTasks/${encodeURIComponent(t.id)}/edit`} className={btn}>
          Edit every field
        </Link>
        <Link to={with_({ edit: undefined, on: undefined })} className={btn}>
          Close
        </Link>
      </div>
    </div>
  )
}

function Feed({ data, token, revoked }: { data: CalData; token?: string; revoked?: boolean }) {
  const { here } = useHere()
  const url = token ? `${data.origin}/ical/${token}.ics` : null
  return (
    <details className="rounded-lg border border-slate-700 p-2 text-sm" open={!!token || revoked}>
      <summary className="cursor-pointer text-slate-300">My tasks in my phone’s calendar</summary>
      <div className="mt-2 flex flex-col gap-2">
        {url ? (
          <p>
            Your private link (shown once; anyone with it sees your tasks): <code data-testid="feed-url" className="break-all text-canopy-400">{url}</code>
          </p>
        ) : data.feedSince ? (
          <p className="text-slate-400">You have a link made {data.feedSince.slice(0, 10)}. Make a new one to see it again (the old one stops working).</p>
        ) : (
          <p className="text-slate-400">{revoked ? 'Your link is turned off.' : 'No link yet.'}</p>
        )}
        <div className="flex gap-2">
          <Form method="post" action={CAL}>
            <input type="hidden" name="intent" value="feed-new" />
            <input type="hidden" name="back" value={here} />
            <button type="submit" className={btn}>
              {data.feedSince ? 'Make a new link' : 'Make my link'}
            </button>
          </Form>
          {data.feedSince ? (
            <Form method="post" action={CAL}>
              <input type="hidden" name="intent" value="feed-revoke" />
              <button type="submit" className={btn}>
                Turn my link off
              </button>
            </Form>
          ) : null}
        </div>
      </div>
    </details>
  )
}

export function CalendarPage() {
  const data = useLoaderData<CalData>()
  const action = useActionData<{ error?: string; feed?: string; revoked?: boolean }>()
  const { with_ } = useHere()
  const panel = data.create ? <CreateForm data={data} /> : data.edit ? <EditForm data={data} /> : null
  return (
    <main className="flex flex-col gap-3 p-4" data-testid="calendar">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold text-slate-100">Calendar</h1>
          <h2 className="text-lg text-slate-300" data-testid="calendar-title">
            {data.title}
          </h2>
        </div>
        <nav aria-label="Calendar dates" className="flex flex-wrap gap-1">
          <Link to={data.links.prev} className={btn} aria-label="Previous">
            ‹ Previous
          </Link>
          <Link to={data.links.today} className={btn}>
            Today
          </Link>
          <Link to={data.links.next} className={btn} aria-label="Next">
            Next ›
          </Link>
        </nav>
        <nav aria-label="Calendar views" className="flex gap-1">
          {VIEWS.map((v) => (
            <Link key={v} to={with_({ view: v === 'month' ? undefined : v, edit: undefined, new: undefined })} className={data.view === v ? btnOn : btn} aria-current={data.view === v ? 'page' : undefined}>
              {v[0].toUpperCase() + v.slice(1)}
            </Link>
          ))}
        </nav>
      </header>
      <Filters data={data} />
      {action?.error ? (
        <p role="alert" className="rounded-md border border-red-600 p-2 text-sm text-red-400">
          {action.error}
        </p>
      ) : null}
      <div className={panel ? 'grid gap-3 lg:grid-cols-[1fr_24rem]' : ''}>
        <Views data={data} />
        {panel ? (
          <aside className="rounded-lg border border-slate-600 bg-slate-900 p-3" data-testid="task-panel">
            {panel}
          </aside>
        ) : null}
      </div>
      <Feed data={data} token={action?.feed} revoked={action?.revoked} />
      <p className="text-xs text-slate-400">Times in {data.timeZone}. Drag a task to another day to move it, or open it and change its dates. In the week and day views, drag a task’s bottom edge to change its end.</p>
    </main>
  )
}

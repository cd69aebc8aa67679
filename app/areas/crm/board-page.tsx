/**
 * /CrmSalesPipeline: the prospects by stage (decision 057). Without JavaScript each card's stage
 * menu is a small form posting the move; with JavaScript the same form posts in the background,
 * a card can be dragged to another column (the same post; refusals are shown above the board), and the board refreshes when anyone
 * else changes a prospect (the `table` events of /events).
 */
import { Link, useActionData, useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState, type DragEvent } from 'react'
import { useLiveRefresh } from '../dashboards/live'
import type { BoardData, Card } from './board.server'
import { BOARD, dollars, FOLLOW_UP, PROSPECTS } from './rules'

const btn = 'inline-flex min-h-[44px] items-center justify-center rounded-md border border-slate-600 px-3 text-sm hover:bg-slate-800'
const field = 'min-h-[44px] min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-950 px-2 text-sm text-slate-100'
const DRAG = 'application/x-canopy-prospect'

type Done = { ok?: boolean; msg?: string; error?: string }

function useLive() {
  const [live, setLive] = useState(false)
  useEffect(() => setLive(true), [])
  return live
}

function ProspectCard({ c, stages, moving, submit }: { c: Card; stages: readonly string[]; moving: boolean; submit: (form: HTMLFormElement) => void }) {
  const live = useLive()
  // a move on its way: the card's form waits (its stage and ts are about to change)
  const busy = moving
  const onDrag = (e: DragEvent) => {
    e.dataTransfer.setData(DRAG, JSON.stringify({ id: c.id, from: c.stage, ts: c.ts }))
    e.dataTransfer.effectAllowed = 'move'
  }
  return (
    <article
      className={`flex flex-col gap-1 rounded-md border border-slate-600 bg-slate-800 p-2 text-sm text-slate-100 ${busy ? 'opacity-60' : ''}`}
      draggable={live}
      onDragStart={onDrag}
      data-card={c.id}
      data-stage={c.stage}
      aria-busy={busy}
      aria-label={c.company}
    >
      <Link to={`${PROSPECTS}/${encodeURIComponent(c.id)}/edit`} className="font-semibold text-canopy-300 hover:underline">
        {c.company}
      </Link>
      {c.contact ? <span className="text-slate-300">{c.contact}</span> : null}
      <span className="flex flex-wrap gap-x-2 text-xs text-slate-400">
        {c.value ? <span data-value={c.value}>{dollars(c.value)}</span> : null}
        {c.next ? <span>Next: {c.next}</span> : null}
        {c.owner ? <span>{c.owner}</span> : null}
      </span>
      <form
        method="post"
        action={BOARD}
        className="flex gap-1"
        onSubmit={(e) => {
          e.preventDefault()
          submit(e.currentTarget)
        }}
      >
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="id" value={c.id} />
        <input type="hidden" name="from" value={c.stage} />
        <input type="hidden" name="ts" value={c.ts} />
        {live ? <input type="hidden" name="_js" value="1" /> : null}
        <select name="stage" defaultValue={c.stage} key={`${c.stage}-${c.ts}`} className={field} aria-label={`Stage of ${c.company}`}>
          {stages.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        <button type="submit" className={btn} disabled={busy}>
          Move
        </button>
      </form>
    </article>
  )
}

export function BoardPage() {
  const data = useLoaderData<BoardData>()
  const done = useActionData<Done>()
  // every move with JavaScript (menu, keyboard, drag) is one board-level post: its answer (a refusal)
  // stays shown when the refresh puts the card in another column
  const drop = useFetcher<Done>({ key: 'pipeline-move' })
  const submit = (form: HTMLFormElement) => drop.submit(form, { method: 'post', action: BOARD })
  const [over, setOver] = useState('')
  useLiveRefresh(['crm_prospects'])
  // a moved card shows in its new column while the move is on its way
  const pending = drop.state !== 'idle' && drop.formData ? { id: String(drop.formData.get('id')), stage: String(drop.formData.get('stage')) } : null
  const columns = data.columns.map((col) => {
    const cards = [...data.columns.flatMap((c) => c.cards), ...data.unstaged].filter((c) => (pending?.id === c.id ? pending.stage === col.stage : c.stage === col.stage))
    return { ...col, cards }
  })
  const onDrop = (e: DragEvent, stage: string) => {
    e.preventDefault()
    setOver('')
    const raw = e.dataTransfer.getData(DRAG)
    if (!raw) return
    const c = JSON.parse(raw) as { id: string; from: string; ts: string }
    if (c.from === stage) return
    drop.submit({ intent: 'move', id: c.id, from: c.from, ts: c.ts, stage, _js: '1' }, { method: 'post', action: BOARD })
  }
  const error = done?.error ?? (drop.state === 'idle' ? drop.data?.error : undefined)
  return (
    <main className="flex flex-col gap-3 p-4" data-testid="pipeline-board">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold text-slate-100">Sales pipeline</h1>
        <nav aria-label="Prospects" className="flex flex-wrap gap-1">
          <Link to={PROSPECTS} className={btn}>
            Prospects table
          </Link>
          <Link to={`${PROSPECTS}/new`} className={btn}>
            New prospect
          </Link>
          <Link to={`/SchCalendar?view=agenda&category=${encodeURIComponent(FOLLOW_UP)}`} className={btn}>
            Follow-ups on the calendar
          </Link>
        </nav>
      </header>
      {data.msg && !error ? (
        <p role="status" className="rounded-md border border-canopy-600 p-2 text-sm text-canopy-200">
          {data.msg}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-600 p-2 text-sm text-red-400">
          {error}
        </p>
      ) : null}
      {data.unstaged.length ? <p className="text-sm text-amber-400">{data.unstaged.length} prospect(s) have no stage of the list: open them in the table to set one.</p> : null}
      <div className="grid auto-cols-[minmax(14rem,1fr)] grid-flow-col gap-2 overflow-x-auto pb-2">
        {columns.map((col) => (
          <section
            key={col.stage}
            aria-label={`Stage ${col.stage}`}
            data-column={col.stage}
            className={`flex min-h-[12rem] flex-col gap-2 rounded-lg border border-slate-700 bg-slate-900 p-2 ${over === col.stage ? 'ring-2 ring-canopy-500' : ''}`}
            onDragOver={(e) => {
              e.preventDefault()
              setOver(col.stage)
            }}
            onDragLeave={() => setOver('')}
            onDrop={(e) => onDrop(e, col.stage)}
          >
            <h2 className="flex items-baseline justify-between text-sm font-semibold text-slate-200">
              <span>{col.stage}</span>
              <span className="text-xs font-normal text-slate-400" data-count={col.cards.length}>
                {col.cards.length} · {dollars(col.cards.reduce((a, c) => a + c.value, 0))}
              </span>
            </h2>
            {col.cards.map((c) => (
              <ProspectCard key={c.id} c={c} stages={data.stages} moving={pending?.id === c.id} submit={submit} />
            ))}
          </section>
        ))}
      </div>
      <p className="text-xs text-slate-400">Move a prospect with its stage menu, or drag its card to another column. Changes others make show here as they happen.</p>
    </main>
  )
}

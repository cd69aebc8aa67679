/**
 * The outbox worker (issue 9 item 5; decision 020): sends one facility's queued pushes to METRC in
 * the order they were queued, never twice.
 *
 *   1. items left `sent` (the process died after sending, or METRC's answer was lost) are checked
 *      against METRC first (applied.server.ts): taken → confirmed; not taken → pending again;
 *      cannot tell → failed, for a person to check.
 *   2. pending items, oldest first: a run of the same endpoint goes as one request of up to 10.
 *      Before the request they are marked `sent` (committed), after it `confirmed` with METRC's Id.
 *      METRC refuses rows → those rows failed with METRC's message, the rest go again; METRC away
 *      (down, 5xx, 429 after the client's retries) → pending again, later, and the pass stops so
 *      nothing overtakes them; a lost answer → left `sent` for step 1; the key refused → the link
 *      is marked failing and the pass stops (a 401 while the key still lists its facilities is a
 *      record outside the license: that row fails).
 * Held (awaiting approval) and failed items do not hold back the others: a person deals with them
 * on the outbox screen (routes/MetrcOutbox.tsx).
 * Never twice with several processes (decision 069): the scheduler runs one pass per facility at a
 * time across processes (its run lock), so an item `sent` by a pass still waiting for METRC's answer
 * is never taken for a lost one by another pass (step 1 would send it again); the pass stops before
 * its next send once `stopped()` says its lock was lost. Each move out of `pending` or `sent` is
 * also conditional on that state, so two passes could never both take one item.
 */
import type { Logger } from 'pino'
import type { Database } from '../../db/index.server'
import type { MetrcClientOptions } from '../client/client.server'
import { MetrcError } from '../client/errors'
import { metrcClient, type MetrcEndpoint } from '../connection.server'
import { permissionText } from '../reference'
import { linkWithKey, markLink } from '../sync/links.server'
import { checkBefore, countWaste, type OutboxRow, type PassCounts, type ReadMemo, wasApplied, wasteKeyOfPush } from './applied.server'
import { pushAbandoned } from '../drift/outbox-hook.server'
import { adoptMetrcId, PUSH_ACTOR } from './adopt.server'

export const IN_DOUBT = "METRC's answer to this push was lost and Canopy cannot tell whether METRC took it. Check METRC: if it is there, discard this item; if not, resend it."

export interface PushOptions {
  database: Database
  secret: string
  endpoint: MetrcEndpoint
  logger: Logger
  client?: Partial<MetrcClientOptions>
  /** items per pass (default 1000) */
  max?: number
  /** the scheduler's stop or its run lock lost: the pass sends nothing more */
  stopped?: () => boolean
}

export interface PushResult {
  confirmed: number
  failed: number
  requests: number
  /** why the pass stopped early: 'unavailable' | 'in-doubt' | 'unauthorized' | 'not linked' | 'stopped' */
  stopped?: string
}

const BATCH = 10
/** wait before retrying after METRC was away: 5 s doubling to 15 min */
export const retryDelayMs = (attempts: number) => Math.min(15 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1))

export async function pushFacility(o: PushOptions, org: string): Promise<PushResult> {
  const db = o.database.db
  const res: PushResult = { confirmed: 0, failed: 0, requests: 0 }
  const link = await linkWithKey(o.database, o.secret, org)
  if (!link) return { ...res, stopped: 'not linked' }
  if (link.status === 'failing') return { ...res, stopped: 'unauthorized' }
  const client = metrcClient(o.endpoint, link.state, link.key, { ...o.client, logger: o.logger, onRequest: (r) => { res.requests++; o.client?.onRequest?.(r) } })
  const license = link.license
  const log = o.logger.child({ org })

  const set = (ids: string[], sql: string, params: unknown[] = []) => db.query(`UPDATE metrc_outbox SET ${sql}, updated_at = now(), updated_by = '${PUSH_ACTOR.uid}' WHERE org = $1 AND id = ANY($2)`, [org, ids, ...params])
  /** METRC will not take it as it is: failed with METRC's words; a drift decision that queued it no longer holds */
  const fail = (id: string, message: string) =>
    db.transaction(async (tx) => {
      await tx.query(`UPDATE metrc_outbox SET status = 'failed', done_at = NULL, message = $3, updated_at = now(), updated_by = '${PUSH_ACTOR.uid}' WHERE org = $1 AND id = $2`, [org, id, message.slice(0, 2000)])
      await pushAbandoned(tx, org, id)
    })
  const keyStillTaken = () => client.get('/facilities/v2').then(() => true, () => false)
  let answered = false
  const reachable = async () => {
    if (answered) return
    answered = true
    await db.query('UPDATE metrc_links SET push_unreachable_since = NULL WHERE org = $1 AND push_unreachable_since IS NOT NULL', [org])
  }
  /** confirmed by METRC, each with its Id when METRC answered one per row */
  const confirm = async (done: OutboxRow[], ids: Array<number | undefined>, note: string | null) => {
    await db.query(
      `UPDATE metrc_outbox o SET status = 'confirmed', done_at = now(), metrc_id = v.mid, message = $4, updated_at = now(), updated_by = '${PUSH_ACTOR.uid}'
       FROM unnest($2::text[], $3::bigint[]) AS v(id, mid) WHERE o.org = $1 AND o.id = v.id`,
      [org, done.map((d) => d.id), ids.map((i) => i ?? null), note],
    )
    res.confirmed += done.length
    for (const [i, item] of done.entries()) {
      const id = ids[i]
      if (id !== undefined) await adoptMetrcId(o.database, item, id).catch((e: Error) => log.warn({ item: item.id, err: e.message }, 'METRC id not recorded on the local record'))
    }
  }
  /** METRC was away or refused the key: what the pass does next */
  const away = async (ids: string[], e: MetrcError): Promise<PushResult> => {
    if (e.kind === 'unauthorized') {
      await set(ids, `status = 'pending', message = $3`, [`METRC refused the facility's key: ${e.message}`])
      await markLink(o.database, org, false, e.message)
      return { ...res, stopped: 'unauthorized' }
    }
    const attempts = (await db.query<{ a: number }>('SELECT max(attempts) AS a FROM metrc_outbox WHERE org = $1 AND id = ANY($2)', [org, ids])).rows[0]?.a ?? 1
    await set(ids, `status = 'pending', next_at = now() + ($3::int * interval '1 millisecond'), message = $4`, [retryDelayMs(Number(attempts)), `METRC is not answering (${e.message}); Canopy will send it again.`])
    await db.query('UPDATE metrc_links SET push_unreachable_since = coalesce(push_unreachable_since, now()) WHERE org = $1', [org])
    log.info({ items: ids.length, err: e.message }, 'METRC away; pushes wait')
    return { ...res, stopped: 'unavailable' }
  }

  // 1. items whose answer was lost
  const doubtful = (await db.query<OutboxRow>(`SELECT * FROM metrc_outbox WHERE org = $1 AND status = 'sent' ORDER BY seq`, [org])).rows
  const memo: ReadMemo = new Map()
  const halted = () => o.stopped?.() ?? false
  for (const item of doubtful) {
    if (halted()) return { ...res, stopped: 'stopped' }
    try {
      const a = await wasApplied(client, license, item, memo)
      if (a === null) {
        await fail(item.id, IN_DOUBT)
        res.failed++
      } else if (a.applied) await confirm([item], [a.id], 'METRC had taken it (found after its answer was lost).')
      else await db.query(`UPDATE metrc_outbox SET status = 'pending', message = NULL, updated_at = now(), updated_by = '${PUSH_ACTOR.uid}' WHERE org = $1 AND id = $2 AND status = 'sent'`, [org, item.id])
    } catch (e) {
      if (e instanceof MetrcError) return { ...res, stopped: e.kind === 'unauthorized' ? 'unauthorized' : 'unavailable' }
      throw e
    }
  }

  // 2. pending items in order
  const single = new Set<string>()
  const pass: PassCounts = {}
  let budget = o.max ?? 1000
  while (budget > 0) {
    if (halted()) return { ...res, stopped: 'stopped' }
    const queue = (await db.query<OutboxRow & { due: boolean }>(`SELECT *, next_at <= now() AS due FROM metrc_outbox WHERE org = $1 AND status = 'pending' ORDER BY seq LIMIT ${BATCH}`, [org])).rows
    if (!queue.length || !queue[0].due) break
    const first = queue[0]
    // the leading run of one endpoint (one item alone when METRC's refusal named no row)
    const run: OutboxRow[] = [first]
    if (!single.has(first.id)) for (const q of queue.slice(1)) {
      if (!q.due || q.endpoint !== first.endpoint || single.has(q.id)) break
      run.push(q)
    }
    // what METRC holds just before, where its rows cannot be found again by id or note (plant waste):
    // kept with the mark "sent", in the same statement
    let before: Awaited<ReturnType<typeof checkBefore>>
    try {
      before = await checkBefore(client, license, first.endpoint, run.map((r) => r.payload), pass)
    } catch (e) {
      if (!(e instanceof MetrcError)) throw e
      if (e.transient || (e.kind === 'unauthorized' && !(await keyStillTaken()))) return away(run.map((r) => r.id), e)
      // METRC will not show this user the list Canopy must count first: sending blind could not be checked later
      for (const item of run) await fail(item.id, `METRC refused Canopy's read of ${first.endpoint.split(' ')[1]} (${e.message}), which it needs before sending this so a lost answer can be checked: the key's METRC user needs ${permissionText(`GET ${first.endpoint.split(' ')[1]}`) ?? 'the permission to view it'}.`)
      res.failed += run.length
      continue
    }
    const taken = (await db.query<{ id: string }>(
      `UPDATE metrc_outbox SET status = 'sent', attempts = attempts + 1, sent_at = now(), check_before = ($3::jsonb[])[array_position($2::text[], id)], updated_at = now(), updated_by = '${PUSH_ACTOR.uid}'
       WHERE org = $1 AND id = ANY($2) AND status = 'pending' RETURNING id`,
      [org, run.map((r) => r.id), before.map((b) => (b === null ? null : JSON.stringify(b)))],
    )).rows.map((r) => r.id)
    const batch = run.filter((r) => taken.includes(r.id))
    if (!batch.length) continue
    if (batch.length !== run.length && before.some((b) => b !== null)) {
      // another sender took some meanwhile: the counts were for the whole run; count again for what goes
      const again = await checkBefore(client, license, first.endpoint, batch.map((b) => b.payload), pass)
      await db.query(`UPDATE metrc_outbox o SET check_before = v.cb FROM unnest($2::text[], $3::jsonb[]) AS v(id, cb) WHERE o.org = $1 AND o.id = v.id`, [org, batch.map((b) => b.id), again.map((b) => (b === null ? null : JSON.stringify(b)))])
    }
    budget -= batch.length
    const [method, path] = first.endpoint.split(' ') as ['POST' | 'PUT' | 'DELETE', string]
    try {
      const r = await client.write(method, path, batch.map((b) => b.payload), { license })
      await confirm(batch, batch.map((_, i) => (r.ids.length === batch.length ? r.ids[i] : undefined)), r.warnings.length ? r.warnings.join(' ') : null)
      if (pass.waste && first.endpoint === 'POST /plants/v2/waste') for (const b of batch) countWaste(pass.waste, wasteKeyOfPush(b.payload))
      await reachable()
    } catch (e) {
      if (!(e instanceof MetrcError)) {
        await set(batch.map((b) => b.id), `status = 'pending'`)
        throw e
      }
      if (e.kind === 'ambiguous') {
        await set(batch.map((b) => b.id), `message = $3`, ["METRC's answer was lost; Canopy checks METRC before sending again."])
        return { ...res, stopped: 'in-doubt' }
      }
      if (e.transient) return away(batch.map((b) => b.id), e)
      // METRC's 401 means a refused key or a record outside the license: a GET of the key's
      // facilities tells them apart; only a refused key stops the pass
      if (e.kind === 'unauthorized' && !(await keyStillTaken())) return away(batch.map((b) => b.id), e)
      // refused: the rows METRC named fail with its words; the others go again
      await reachable()
      const named = new Map<number, string[]>()
      for (const row of e.rows) if (row.row >= 0 && row.row < batch.length) named.set(row.row, [...(named.get(row.row) ?? []), row.message])
      if (named.size) {
        for (const [i, item] of batch.entries()) {
          if (named.has(i)) {
            await fail(item.id, named.get(i)!.join(' '))
            res.failed++
          } else await set([item.id], `status = 'pending'`)
        }
      } else if (batch.length > 1) {
        // no row named: send them one by one to learn which
        await set(batch.map((b) => b.id), `status = 'pending'`)
        for (const b of batch) single.add(b.id)
      } else {
        await fail(batch[0].id, e.message)
        res.failed++
      }
    }
  }
  return res
}

/** Facilities with something to send now (pending and due, or sent and unanswered). */
export async function facilitiesToPush(database: Database): Promise<string[]> {
  const r = await database.db.query<{ org: string }>(`SELECT DISTINCT org FROM metrc_outbox WHERE (status = 'pending' AND next_at <= now()) OR status = 'sent' ORDER BY org`)
  return r.rows.map((x) => x.org)
}

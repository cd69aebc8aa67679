/**
 * Run locks (issue 30 item 4, decision 069): "one run of this job at a time" across every process on
 * one database, never waiting — a process that does not get the lock skips the job this time.
 *
 * PostgreSQL: session advisory locks (`pg_try_advisory_lock`) taken on one dedicated connection per
 * process, held for as long as the run lasts. The key is a 64-bit hash of the database schema and the
 * run's name (e.g. `metrc-push:greenleaf`), so installs and test suites sharing a server never block
 * each other. A process that dies loses its connection and with it every lock it held: nothing is
 * left to expire. If the connection drops while the process lives, each lock it held reports
 * `lost()` (the run stops at its next check) and the next request opens a new connection.
 * Advisory locks are re-entrant within a session, so the process also keeps the names it holds in
 * memory: the same name is never taken twice by one process.
 * PGlite: one process (its folder lock), so the in-memory half alone.
 */
import pg from 'pg'

export interface RunLock {
  /** true once the lock can no longer be trusted (its connection dropped): stop before the next step */
  lost: () => boolean
  release: () => Promise<void>
}

export interface RunLocks {
  /** the lock named `name`, or null when another run (this process's or another's) holds it */
  tryTake: (name: string) => Promise<RunLock | null>
  close: () => Promise<void>
}

/** The one process's locks (PGlite, and the in-process half of PostgreSQL's). */
export function memoryRunLocks(): RunLocks {
  const held = new Set<string>()
  return {
    tryTake: async (name) => {
      if (held.has(name)) return null
      held.add(name)
      let done = false
      return {
        lost: () => false,
        release: async () => {
          if (!done) held.delete(name)
          done = true
        },
      }
    },
    close: async () => held.clear(),
  }
}

const KEY_SQL = `hashtextextended(coalesce(current_schema(), '') || ':' || $1, 0)`

export function pgRunLocks(url: string): RunLocks {
  const held = new Map<string, { lost: boolean }>()
  let conn: Promise<pg.Client> | null = null
  let closed = false

  const open = (): Promise<pg.Client> => {
    if (conn) return conn
    const c = new pg.Client({ connectionString: url, application_name: 'canopy-run-locks', keepAlive: true, keepAliveInitialDelayMillis: 10_000 })
    const p = (async () => {
      const drop = () => {
        if (conn !== p) return
        conn = null
        for (const h of held.values()) h.lost = true
        held.clear()
      }
      c.on('error', drop)
      c.on('end', drop)
      await c.connect()
      // held idle for a whole run: never cut for idleness; a peer that vanished is noticed in about a minute
      // (each setting only where the server has it: idle_session_timeout is PostgreSQL 14+)
      await c.query(`SELECT set_config(s.name, s.v, false) FROM (VALUES ('statement_timeout', '10000'), ('idle_session_timeout', '0'), ('idle_in_transaction_session_timeout', '0'),
        ('tcp_keepalives_idle', '30'), ('tcp_keepalives_interval', '10'), ('tcp_keepalives_count', '3')) AS s(name, v) WHERE s.name IN (SELECT name FROM pg_settings)`)
      return c
    })()
    conn = p
    p.catch(() => {
      if (conn === p) conn = null
      void c.end().catch(() => {})
    })
    return p
  }

  return {
    tryTake: async (name) => {
      if (closed || held.has(name)) return null
      const state = { lost: false }
      held.set(name, state)
      let c: pg.Client
      try {
        c = await open()
        const r = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${KEY_SQL}) AS ok`, [name])
        if (!r.rows[0]?.ok) {
          if (held.get(name) === state) held.delete(name)
          return null
        }
      } catch (e) {
        if (held.get(name) === state) held.delete(name)
        throw e
      }
      let done = false
      return {
        lost: () => state.lost,
        release: async () => {
          if (done) return
          done = true
          if (held.get(name) !== state) return
          held.delete(name)
          if (!state.lost) await c.query(`SELECT pg_advisory_unlock(${KEY_SQL})`, [name]).catch(() => {})
        },
      }
    },
    close: async () => {
      closed = true
      const p = conn
      conn = null
      for (const h of held.values()) h.lost = true
      held.clear()
      if (p) await p.then((c) => c.end(), () => {}).catch(() => {})
    },
  }
}

/**
 * Run locks (db/run-lock.server.ts, decision 069), on both databases: a name is held by one run at a
 * time and never waited for; released, it can be taken again; other names are free. On PostgreSQL
 * the lock holds across connection pools (two processes): another Database on the same schema is
 * refused, one on another schema is not (the key includes the schema), and a holder whose connection
 * dies (a crashed process) leaves nothing behind: its run is told the lock is lost and the other takes it.
 * The METRC loop (every-facility.server.ts) skips a facility whose lock another run holds.
 */
import pg from 'pg'
import pino from 'pino'
import { openDatabase, type Database } from '#app/db/index.server'
import { everyFacility } from '#app/metrc/every-facility.server'
import { createPgSchema, freshOptions, openTestDatabase, TEST_DATABASE_URL, TEST_DB, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(async () => {
  await t?.cleanup()
})

describe(`run locks on ${TEST_DB}`, () => {
  it('one holder per name, no waiting, free again once released', async () => {
    const a = await t.db.runLocks.tryTake('metrc-push:greenleaf')
    expect(a).not.toBeNull()
    expect(await t.db.runLocks.tryTake('metrc-push:greenleaf')).toBeNull()
    const other = await t.db.runLocks.tryTake('metrc-sync:greenleaf')
    expect(other).not.toBeNull()
    expect(await t.db.runLocks.tryTake('metrc-push:harbor')).not.toBeNull()
    await a!.release()
    await a!.release() // twice is harmless
    const again = await t.db.runLocks.tryTake('metrc-push:greenleaf')
    expect(again).not.toBeNull()
    expect(again!.lost()).toBe(false)
    await again!.release()
    await other!.release()
    await (await t.db.runLocks.tryTake('metrc-push:harbor'))?.release()
  })

  it('the facility loop skips a facility whose run is held elsewhere', async () => {
    const ran: string[] = []
    const loop = everyFacility({ everyMs: 3_600_000, log: pino({ level: 'silent' }), what: 'test loop', name: 'test-loop', locks: t.db.runLocks, facilities: async () => ['a', 'b'], work: async (org) => void ran.push(org) })
    const held = await t.db.runLocks.tryTake('test-loop:a')
    try {
      await loop.tick()
      await loop.idle()
      expect(ran).toEqual(['b'])
      await held!.release()
      await loop.tick()
      await loop.idle()
      expect(ran.sort()).toEqual(['a', 'b', 'b'])
    } finally {
      loop.stop()
    }
  })
})

describe.runIf(TEST_DB === 'pg')('run locks across processes on one PostgreSQL', () => {
  let other: Database
  let elsewhere: Database
  const elsewhereOpts = freshOptions()
  beforeAll(async () => {
    other = await openDatabase(t.opts)
    await createPgSchema(elsewhereOpts.opts.pgSchema)
    elsewhere = await openDatabase(elsewhereOpts.opts)
  })
  afterAll(async () => {
    await other?.close()
    await elsewhere?.close()
    await elsewhereOpts.drop()
  })

  it('another pool on the same schema is refused; one on another schema is not', async () => {
    const mine = await t.db.runLocks.tryTake('metrc-sync:greenleaf')
    expect(mine).not.toBeNull()
    try {
      expect(await other.db.runLocks.tryTake('metrc-sync:greenleaf')).toBeNull()
      expect(await other.db.runLocks.tryTake('metrc-push:greenleaf')).not.toBeNull()
      const there = await elsewhere.db.runLocks.tryTake('metrc-sync:greenleaf')
      expect(there).not.toBeNull()
      await there!.release()
    } finally {
      await mine!.release()
    }
    const theirs = await other.db.runLocks.tryTake('metrc-sync:greenleaf')
    expect(theirs).not.toBeNull()
    await theirs!.release()
  })

  it('a holder whose connection dies (a crash) blocks nothing: its run learns the lock is lost', async () => {
    const held = await t.db.runLocks.tryTake('metrc-push:crash')
    expect(held).not.toBeNull()
    expect(await other.db.runLocks.tryTake('metrc-push:crash')).toBeNull()
    // end the lock connection from the server's side, as a dead process's would end
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await admin.connect()
    try {
      const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'canopy-run-locks' AND pid IN (SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND (l.classid::bigint << 32 | l.objid::bigint) = (SELECT hashtextextended($1 || ':metrc-push:crash', 0)))`, [t.opts.pgSchema])
      expect(killed.rowCount).toBe(1)
    } finally {
      await admin.end()
    }
    const deadline = Date.now() + 10_000
    let taken = await other.db.runLocks.tryTake('metrc-push:crash')
    while (!taken && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
      taken = await other.db.runLocks.tryTake('metrc-push:crash')
    }
    expect(taken).not.toBeNull()
    await vi.waitFor(() => expect(held!.lost()).toBe(true), { timeout: 5_000 })
    await held!.release()
    // the process whose connection died opens a new one for its next run
    expect(await t.db.runLocks.tryTake('metrc-push:crash')).toBeNull()
    await taken!.release()
    const back = await t.db.runLocks.tryTake('metrc-push:crash')
    expect(back).not.toBeNull()
    await back!.release()
  })
})

import { connect } from '#app/db/index.server'
import { migrate, MigrationError } from '#app/db/migrate.server'
import { MIGRATIONS } from '#app/db/migrations/index'
import { createPgSchema, freshOptions, TEST_DB } from '#tests/helpers/db'

describe(`migrations on ${TEST_DB}`, () => {
  it('apply once, in order; a second run does nothing; a failing one rolls back and says which', async () => {
    const { opts, drop } = freshOptions()
    await createPgSchema(opts.pgSchema)
    const db = await connect(opts)
    try {
      expect(await migrate(db)).toEqual(MIGRATIONS.map((m) => m.version))
      expect(await migrate(db)).toEqual([])
      const bad = [...MIGRATIONS, { version: 900, name: 'broken', sql: 'CREATE TABLE half_done (a int); SELECT no_such_function();' }]
      const err = await migrate(db, bad).catch((e) => e)
      expect(err).toBeInstanceOf(MigrationError)
      expect((err as Error).message).toMatch(/migration 900 \(broken\) failed and was rolled back/)
      const left = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'half_done' AND schemaname = ANY (current_schemas(false))`)
      expect(left.rows[0].n).toBe(0)
      const versions = await db.query<{ version: number }>('SELECT version FROM canopy_migrations ORDER BY 1')
      expect(versions.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version))
    } finally {
      await db.close()
      await drop()
    }
  })
})

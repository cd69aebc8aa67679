// Run by the e2e webServer command before the server starts: a fresh PostgreSQL schema per run.
import pg from 'pg'

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const schema = process.env.E2E_PG_SCHEMA ?? 'canopy_e2e'
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`)
const c = new pg.Client({ connectionString: url })
await c.connect()
await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
await c.query(`CREATE SCHEMA ${schema}`)
await c.end()

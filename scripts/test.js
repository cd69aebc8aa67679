// npm test: unit, build, integration on PGlite and on PostgreSQL, then Playwright (JS on and off).
import { spawnSync } from 'node:child_process'

const steps = [
  ['unit tests', 'npx', ['vitest', 'run', '--project', 'unit'], {}],
  ['production build', 'npm', ['run', 'build'], {}],
  ['integration tests on PGlite', 'npx', ['vitest', 'run', '--project', 'integration'], { TEST_DB: 'pglite' }],
  ['integration tests on PostgreSQL', 'npx', ['vitest', 'run', '--project', 'integration'], { TEST_DB: 'pg' }],
  ['end-to-end tests in Chromium', 'npx', ['playwright', 'test'], {}],
]
const only = process.argv[2]
for (const [name, cmd, args, env] of steps) {
  if (only && !name.includes(only)) continue
  process.stdout.write(`\n== ${name}\n`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (r.status !== 0) {
    process.stdout.write(`\n${name} failed (exit ${r.status})\n`)
    process.exit(r.status ?? 1)
  }
  process.stdout.write(`== ${name} passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
}

// npm test: type check, lint, unit, build, integration on PGlite and on PostgreSQL, then Playwright (JS on and off).
// Ends with one plain line "N passed, N failed" summing every runner's counts.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { readReport } from './test-report.mjs'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-test-report-'))
const vitest = (project, file) => ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]

const steps = [
  { name: 'type check', cmd: 'npx', args: () => ['tsc', '--noEmit'] },
  { name: 'lint', cmd: 'npx', args: () => ['eslint', '.', '--max-warnings', '0'] },
  { name: 'unit tests', cmd: 'npx', args: (f) => vitest('unit', f), kind: 'vitest' },
  { name: 'production build', cmd: 'npm', args: () => ['run', 'build'] },
  { name: 'integration tests on PGlite', cmd: 'npx', args: (f) => vitest('integration', f), env: { TEST_DB: 'pglite' }, kind: 'vitest' },
  { name: 'integration tests on PostgreSQL', cmd: 'npx', args: (f) => vitest('integration', f), env: { TEST_DB: 'pg' }, kind: 'vitest' },
  { name: 'end-to-end tests in Chromium', cmd: 'npx', args: () => ['playwright', 'test', '--reporter=list,json'], kind: 'playwright' },
]

/** passed/failed/skipped and problems (crashed suites, retried tests) from a runner's JSON report */
function counts(kind, file) {
  return readReport(kind, fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined)
}

const total = { passed: 0, failed: 0, skipped: 0 }
const only = process.argv[2]
let failedStep = null
for (const [i, s] of steps.entries()) {
  if (only && !s.name.includes(only)) continue
  process.stdout.write(`\n== ${s.name}\n`)
  const started = Date.now()
  const report = path.join(tmp, `${i}.json`)
  const r = spawnSync(s.cmd, s.args(report), { stdio: 'inherit', env: { ...process.env, ...s.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report } })
  let problems = []
  if (s.kind) {
    const c = counts(s.kind, report)
    for (const k of ['passed', 'failed', 'skipped']) total[k] += c[k]
    problems = c.problems
    for (const p of problems) process.stdout.write(`!! ${s.name}: ${p}\n`)
  }
  if (r.status !== 0 || problems.length) {
    failedStep = s.name
    if (!s.kind) total.failed += 1 // a failed build counts as a failure even though it is not a test
    break
  }
  process.stdout.write(`== ${s.name} passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`)
}
fs.rmSync(tmp, { recursive: true, force: true })
if (failedStep) process.stdout.write(`\n${failedStep} failed\n`)
process.stdout.write(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`)
process.exit(failedStep || total.failed ? 1 : 0)

// What a runner's JSON report says, for scripts/test.js: passed, failed, skipped, and the reasons a
// run that exited 0 must still fail (a suite whose file crashed before its tests ran, a test that
// passed only on a retry). A crashed suite counts as one failure, never as skipped tests.

/** @param {'vitest'|'playwright'} kind @param {any} r the parsed report (undefined: the runner wrote none) */
export function readReport(kind, r) {
  if (!r) return { passed: 0, failed: 0, skipped: 0, problems: ['the runner wrote no report (it crashed before running tests)'] }
  if (kind === 'vitest') {
    const problems = []
    // a file that throws on import or in a hook: its result is 'failed' with a message, its tests pending or absent
    for (const f of r.testResults ?? []) {
      const crashed = f.status === 'failed' && (f.assertionResults ?? []).every((a) => a.status !== 'failed')
      if (crashed) problems.push(`suite crashed: ${f.name}${f.message ? ` — ${String(f.message).split('\n')[0]}` : ''}`)
    }
    const failed = r.numFailedTests + problems.length
    return { passed: r.numPassedTests, failed, skipped: r.numPendingTests + r.numTodoTests, problems }
  }
  const problems = []
  const walk = (suite) => {
    for (const s of suite.suites ?? []) walk(s)
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'flaky') problems.push(`needed a retry (flaky): ${spec.file ?? ''} › ${spec.title} [${t.projectName}]`)
      }
    }
  }
  for (const s of r.suites ?? []) walk(s)
  for (const e of r.errors ?? []) problems.push(`error outside a test: ${String(e.message ?? e).split('\n')[0]}`)
  const flaky = r.stats?.flaky ?? 0
  if (flaky && !problems.some((p) => p.startsWith('needed a retry'))) problems.push(`${flaky} test(s) needed a retry (flaky)`)
  return { passed: r.stats.expected, failed: r.stats.unexpected + flaky, skipped: r.stats.skipped, problems }
}

/**
 * scripts/test.js reads each runner's JSON report through readReport: a suite that crashed (on import
 * or in a hook) is a failure, never skipped tests, and a Playwright test that passed only on its retry
 * fails the run (issue 28). The vitest shapes below are what vitest 3 wrote for such files here.
 */
import { describe, expect, it } from 'vitest'
import { readReport } from '../../scripts/test-report.mjs'

const vitestReport = (results: unknown[], n: Partial<Record<string, number>> = {}) => ({
  numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, ...n, testResults: results,
})

describe('readReport (vitest)', () => {
  it('counts a file that throws on import as a failure', () => {
    const r = readReport('vitest', vitestReport([{ name: '/x/crash.test.ts', status: 'failed', message: 'boom at import', assertionResults: [] }]))
    expect(r.failed).toBe(1)
    expect(r.problems).toEqual(['suite crashed: /x/crash.test.ts — boom at import'])
  })
  it('counts a file whose beforeAll throws as a failure, not as skipped tests only', () => {
    const r = readReport('vitest', vitestReport([{ name: '/x/hook.test.ts', status: 'failed', message: 'hook boom', assertionResults: [{ status: 'skipped' }] }], { numPendingTests: 1 }))
    expect(r).toMatchObject({ failed: 1, skipped: 1 })
    expect(r.problems).toHaveLength(1)
  })
  it('a failing test is counted once, not as a crash', () => {
    const r = readReport('vitest', vitestReport([{ name: '/x/a.test.ts', status: 'failed', assertionResults: [{ status: 'failed' }, { status: 'passed' }] }], { numFailedTests: 1, numPassedTests: 1 }))
    expect(r).toEqual({ passed: 1, failed: 1, skipped: 0, problems: [] })
  })
  it('a green report has no problems', () => {
    expect(readReport('vitest', vitestReport([{ name: '/x/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] }], { numPassedTests: 1 }))).toEqual({ passed: 1, failed: 0, skipped: 0, problems: [] })
  })
  it('no report at all is a problem', () => {
    expect(readReport('vitest', undefined).problems).toHaveLength(1)
  })
})

describe('readReport (playwright)', () => {
  const pw = (status: string, stats: Record<string, number>) => ({
    stats: { expected: 0, unexpected: 0, skipped: 0, flaky: 0, ...stats },
    suites: [{ suites: [{ specs: [{ file: 'tests/e2e/a.test.ts', title: 'signs in', tests: [{ status, projectName: 'js' }] }] }] }],
    errors: [],
  })
  it('a test that needed a retry fails the run and is named', () => {
    const r = readReport('playwright', pw('flaky', { expected: 3, flaky: 1 }))
    expect(r.failed).toBe(1)
    expect(r.passed).toBe(3)
    expect(r.problems).toEqual(['needed a retry (flaky): tests/e2e/a.test.ts › signs in [js]'])
  })
  it('an expected run has no problems', () => {
    expect(readReport('playwright', pw('expected', { expected: 4 }))).toEqual({ passed: 4, failed: 0, skipped: 0, problems: [] })
  })
  it('an error outside any test (global setup) is a problem', () => {
    const r = readReport('playwright', { ...pw('expected', { expected: 1 }), errors: [{ message: 'webServer exited early\nmore' }] })
    expect(r.problems).toEqual(['error outside a test: webServer exited early'])
  })
})

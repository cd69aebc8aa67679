/**
 * Playwright fixtures: the app's own store on the e2e database (accounts created through it are
 * real and audited), a way to create a fresh user per test, a way to undo what a test set up on
 * the shared demo facility, and sign-in helpers that work with JavaScript on and off.
 */
import crypto from 'node:crypto'
import { test as base, expect, type Page } from '@playwright/test'
import { setPassword } from '../../app/auth/accounts.server'
import { openDatabase, type Database } from '../../app/db/index.server'
import { E2E } from './env'

export const PASSWORD = 'Canopy#Demo1'

export interface NewUser {
  role?: 'super' | 'admin' | 'user'
  org?: string
  modules?: Record<string, string[] | null>
  eula?: boolean
  web?: 'yes' | 'no'
  password?: string
}

export const test = base.extend<{ createUser: (u?: NewUser) => Promise<{ uid: string; email: string; password: string }>; cleanup: (undo: () => Promise<unknown>) => void }, { database: Database }>({
  database: [
    // Playwright reads a fixture's dependencies from this destructuring pattern: none here
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const database = await openDatabase({ databaseUrl: E2E.databaseUrl, pgSchema: E2E.schema })
      await use(database)
      await database.close()
    },
    { scope: 'worker' },
  ],
  /**
   * `cleanup(undo)`: undo runs when the test ends, last registered first, passed or failed. Unlike a
   * `finally` in the test's body it also runs when the test times out: Playwright tears this fixture
   * down before the worker's database closes (a `finally` then ran on a closed pool, the facility
   * stayed linked to METRC and every later METRC test failed with it).
   */
  cleanup: async ({ database: _database }, use, info) => {
    const undo: Array<() => Promise<unknown>> = []
    await use((fn) => void undo.push(fn))
    for (const fn of undo.reverse()) await fn().catch((e: Error) => console.error(`cleanup after "${info.title}": ${e.message}`))
  },
  createUser: async ({ database }, use, info) => {
    await use(async (u = {}) => {
      const uid = `e2e-${crypto.randomBytes(5).toString('hex')}`
      const email = `${uid}@e2e.test`
      const org = u.org ?? 'greenleaf'
      const modules = u.modules ?? { [org]: ['cul', 'help'] }
      await database.store.insert({ uid: 'e2e-fixture', requestId: info.title }, 'auth', 'users', {
        _id: uid,
        uid,
        email,
        role: u.role ?? 'user',
        org,
        firstname: 'Test',
        lastname: uid,
        props: { facilities: Object.keys(modules), modules },
        web: u.web ?? 'yes',
        eulaip: u.eula === false ? '' : '127.0.0.1',
      })
      const password = u.password ?? PASSWORD
      await setPassword(database, uid, password)
      return { uid, email, password }
    })
  },
})

export { expect }

export async function login(page: Page, email: string, password: string, path = '/Welcome') {
  await page.goto(path)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
}

/** Login and wait until the Welcome page says who is signed in. */
export async function signIn(page: Page, email: string, password: string) {
  await login(page, email, password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
}

/** Logout from the shell's user menu (a <details>: it opens without JavaScript too). */
export async function logout(page: Page) {
  await page.locator('summary[aria-label^="User menu"]').click()
  await page.getByRole('button', { name: 'Logout' }).click()
}

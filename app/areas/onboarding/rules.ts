/**
 * Onboarding's rules, shared by the browser (live checks) and the server (which enforces them):
 * a user's rights (`props`, one zod schema for every write path), the password rules of SPEC §5
 * one by one, the new-account form and the user form.
 */
import { z } from 'zod'
import { CREDENTIAL_STATES, FORBIDDEN_PASSWORD_CHARS } from '../../auth/messages'
import { isTimeZone } from '../../format/zones'
import { MODULES, type ModuleCode } from '../../route-map'
import { issueLine } from '../../utils/zod-messages'

export const MODULE_CODES = MODULES.map((m) => m.code) as [ModuleCode, ...ModuleCode[]]
const facilityKey = z.string().regex(/^[a-z][a-z0-9_-]{1,39}$/, 'a facility is named by its short key')
const moduleCode = z.enum(MODULE_CODES, { errorMap: () => ({ message: 'not a module of Canopy' }) })

/** users.props: the facilities a user may enter and the modules entitled in each (null: all). */
export const userPropsSchema = z
  .object({
    facilities: z.array(facilityKey).max(200).default([]),
    modules: z.record(facilityKey, z.array(moduleCode).max(MODULE_CODES.length).nullable()).default({}),
    roles: z.array(z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/)).max(20).optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    for (const f of Object.keys(p.modules)) if (!p.facilities.includes(f)) ctx.addIssue({ code: 'custom', path: ['modules', f], message: `modules are given for ${f}, which is not among the facilities` })
  })
export type UserProps = z.infer<typeof userPropsSchema>

/** Reads props as stored by any path (an object, or the JSON text an older form wrote). */
export function parseUserProps(v: unknown): { ok: true; props: UserProps } | { ok: false; message: string } {
  let raw = v
  if (typeof v === 'string') {
    try {
      raw = v.trim() ? JSON.parse(v) : {}
    } catch {
      return { ok: false, message: 'Facilities and Modules: not valid JSON' }
    }
  }
  const r = userPropsSchema.safeParse(raw ?? {})
  if (!r.success) return { ok: false, message: `Facilities and Modules: ${issueLine(r.error.issues[0])}` }
  return { ok: true, props: r.data }
}

/** SPEC §5's password rules, each on its own: the live checklist and the server's message. */
export const PASSWORD_RULES = [
  { id: 'length', label: 'At least 8 characters', test: (v: string) => v.length >= 8 },
  { id: 'lower', label: 'One lower-case letter', test: (v: string) => /[a-z]/.test(v) },
  { id: 'upper', label: 'One upper-case letter', test: (v: string) => /[A-Z]/.test(v) },
  { id: 'digit', label: 'One numeral', test: (v: string) => /[0-9]/.test(v) },
  { id: 'special', label: 'One special character', test: (v: string) => /[^A-Za-z0-9\s]/.test(v) },
  { id: 'forbidden', label: 'None of " \' ? & / < > or spaces', test: (v: string) => !FORBIDDEN_PASSWORD_CHARS.test(v) },
] as const

export const failedPasswordRules = (v: string) => PASSWORD_RULES.filter((r) => !r.test(v))

/** A new password: every rule, the first failed one named in the message. */
export const chosenPassword = z
  .string()
  .max(200, 'Password is too long')
  .superRefine((v, ctx) => {
    const failed = failedPasswordRules(v)
    if (failed.length) ctx.addIssue({ code: 'custom', message: `The password needs: ${failed.map((r) => r.label.toLowerCase()).join('; ')}.` })
  })

export const setPasswordForm = z.object({ password: chosenPassword, confirm: z.string() }).refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords differ' })

export const LICENSE_RE = /^[A-Za-z0-9][A-Za-z0-9-]{2,39}$/
const RESERVED_ORGS = ['auth', 'lobby', 'admin', 'super', 'platform', 'system']
const checkbox = z.preprocess((v) => (Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v]), z.array(z.string()))

export const personFields = {
  firstname: z.string().trim().min(1, 'Enter a first name').max(60, 'That name is too long'),
  lastname: z.string().trim().min(1, 'Enter a last name').max(60, 'That name is too long'),
  email: z.string().trim().min(1, 'Enter an email address').max(254, 'Email is too long').email('Enter a valid email address').transform((v) => v.toLowerCase()),
}

/** The new account of /SupNewAccount: the organisation (one facility), its entitlements and its first admin. */
export const newAccountSchema = z.object({
  name: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9-]{2,39}$/, 'A short name of 3–40 lower-case letters, digits or dashes, starting with a letter (e.g. emerald-bay)')
    .refine((v) => !RESERVED_ORGS.includes(v), 'That name is reserved; choose another'),
  fullName: z.string().trim().min(2, 'Enter the facility’s full name').max(120, 'That name is too long'),
  kind: z.enum(['cultivation', 'distribution', 'testing', 'retail'], { errorMap: () => ({ message: 'Choose the kind of facility' }) }),
  state: z.enum(CREDENTIAL_STATES, { errorMap: () => ({ message: `Choose a state from the list (${CREDENTIAL_STATES.join(', ')})` }) }),
  license: z.string().trim().regex(LICENSE_RE, 'A state license is 3–40 letters, digits and dashes, e.g. CCL21-0001234'),
  timezone: z.string().trim().refine((v) => isTimeZone(v), 'Choose a time zone from the list'),
  street: z.string().trim().min(3, 'Enter the street address').max(200, 'That address is too long'),
  city: z.string().trim().min(2, 'Enter the city').max(100, 'That city is too long'),
  zip: z.string().trim().regex(/^\d{5}(-\d{4})?$/, 'Enter a ZIP code: 5 digits, or 5+4'),
  modules: checkbox.pipe(z.array(moduleCode).min(1, 'Choose at least one module')),
  wid: checkbox,
  ...personFields,
  /** a lobby sign-up being approved (its uid) */
  from: z.string().trim().max(80).optional(),
})
export type NewAccount = z.infer<typeof newAccountSchema>

export const ROLES_GRANTABLE = ['user', 'admin'] as const

/** The user form: who, role, web access and the rights grid (posted as m:{facility}:{code} checkboxes). */
export const userFormSchema = z.object({
  ...personFields,
  role: z.enum(ROLES_GRANTABLE, { errorMap: () => ({ message: 'Choose a role' }) }),
  web: z.enum(['yes', 'no'], { errorMap: () => ({ message: 'Choose whether the account may use the web console' }) }),
})

/** The rights grid of a posted form: { facility: [module codes] } from its m:{facility}:{code} boxes. */
export function gridFromForm(form: Iterable<[string, unknown]>): Record<string, ModuleCode[]> {
  const out: Record<string, ModuleCode[]> = {}
  for (const [k, v] of form) {
    const m = /^m:([a-z][a-z0-9_-]{1,39}):([a-z]+)$/.exec(k)
    if (!m || v !== 'yes' || !(MODULE_CODES as string[]).includes(m[2])) continue
    out[m[1]] = [...(out[m[1]] ?? []), m[2] as ModuleCode]
  }
  return out
}

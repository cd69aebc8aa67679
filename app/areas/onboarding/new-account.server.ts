/**
 * A new account (/SupNewAccount): the organisation (one facility), its first admin and the request
 * record (the METRC link waits for the facility's own API key), written in one transaction, each
 * record audited; then the admin's invitation mail. A lobby sign-up being approved is moved into
 * the new facility instead of invited, and gets SPEC §4's authorization email.
 */
import type { AppLoadContext } from '@remix-run/node'
import { findUser, findUserByEmail } from '../../auth/accounts.server'
import { LOBBY, processingOf } from '../../auth/flow.server'
import type { Actor } from '../../db/types'
import { PLATFORM_ORG } from '../../route-map'
import { isAppError } from '../../utils/errors'
import { newId } from '../../utils/ids'
import { issueInvite, sendAuthorizationMail, sendInviteMail } from './invitations.server'
import type { NewAccount } from './rules'
import { insertInTx, updateInTx } from './tx.server'

export type CreateResult =
  | { ok: true; org: string; uid: string; mailed: boolean; moved: boolean }
  | { ok: false; errors: Record<string, string> }

/** Lobby sign-ups that submitted credentials and wait for approval (newest first). */
export async function lobbySignups(context: AppLoadContext) {
  const { store } = context.database
  const users = (await store.find(PLATFORM_ORG, 'users', { org: LOBBY }, 500)).filter((u) => u.IsUsed !== 'no')
  const out = []
  for (const u of users) {
    const p = await processingOf(context.database, String(u.email))
    if (!p || p.error_lic === 'yes' || p.error_metrc === 'yes') continue
    out.push({ uid: String(u.uid ?? u._id), email: String(u.email), name: `${u.firstname ?? ''} ${u.lastname ?? ''}`.trim(), state: p.state ?? '', license: p.lic ?? '', metrc: p.metrc_api ?? '' })
  }
  return out
}

async function problems(context: AppLoadContext, v: NewAccount): Promise<Record<string, string>> {
  const { store } = context.database
  const errors: Record<string, string> = {}
  const orgs = await store.find(PLATFORM_ORG, 'org', {}, 5000)
  if (orgs.some((o) => o._id === v.name)) errors.name = `An organisation named ${v.name} already exists`
  if (orgs.some((o) => String(o.fullName ?? '').trim().toLowerCase() === v.fullName.toLowerCase())) errors.fullName = `An organisation called ${v.fullName} already exists`
  const same = await findUserByEmail(context.database, v.email)
  if (same && (!v.from || same.uid !== v.from)) errors.email = `A user with the address ${v.email} already exists`
  if (v.from) {
    const lobby = await findUser(context.database, v.from)
    if (!lobby || lobby.org !== LOBBY) errors.from = 'That sign-up is no longer waiting in the lobby'
    else if (lobby.email !== v.email) errors.email = `The approved sign-up's address is ${lobby.email}`
  }
  if (v.wid.length) {
    const known = new Set((await store.find(PLATFORM_ORG, 'auth_workflows', {}, 1000)).map((w) => w._id))
    const bad = v.wid.filter((w) => !known.has(w))
    if (bad.length) errors.wid = `Unknown workflows: ${bad.join(', ')}`
  }
  return errors
}

export async function createAccount(context: AppLoadContext, actor: Actor, v: NewAccount, origin: string): Promise<CreateResult> {
  const errors = await problems(context, v)
  if (Object.keys(errors).length) return { ok: false, errors }
  const { database } = context
  const props = { facilities: [v.name], modules: { [v.name]: v.modules } }
  const uid = v.from ?? `u-${newId()}`
  let token: string | null = null
  const lobbyDoc = v.from ? (await database.store.find(PLATFORM_ORG, 'users', { uid: v.from }, 1))[0] : undefined
  try {
    await database.db.transaction(async (tx) => {
      await insertInTx(tx, actor, PLATFORM_ORG, 'org', v.name, {
        name: v.name, fullName: v.fullName, kind: v.kind, state: v.state, license: v.license, timezone: v.timezone,
        street: v.street, city: v.city, zip: v.zip, modules: v.modules, wid: v.wid,
        metrc: '', server: 'local', compserver: 'local', fileserver: 'local', IsUsed: 'yes',
      })
      if (v.from) {
        const moved = await updateInTx(tx, actor, PLATFORM_ORG, 'users', lobbyDoc?._id ?? v.from, { org: v.name, role: 'admin', firstname: v.firstname, lastname: v.lastname, props, IsUsed: 'yes' })
        if (!moved) throw new Error('the lobby sign-up disappeared')
      } else {
        await insertInTx(tx, actor, PLATFORM_ORG, 'users', uid, { uid, email: v.email, role: 'admin', org: v.name, firstname: v.firstname, lastname: v.lastname, props, web: 'yes', emailVerified: 'no', eulaip: '', IsUsed: 'yes' })
        token = await issueInvite(tx, uid, v.email)
      }
      await insertInTx(tx, actor, PLATFORM_ORG, 'sup_new_accounts', newId(), {
        company: v.fullName, contact: `${v.firstname} ${v.lastname}`, email: v.email, state: v.state, license: v.license,
        facility_type: v.kind[0].toUpperCase() + v.kind.slice(1), requested: new Date().toISOString(), status: 'Provisioned', eula: 'no', org: v.name,
        notes: `METRC link requested for license ${v.license} (${v.state}): waiting for the facility's API key (Metrc screens, link form).`,
      })
    })
  } catch (e) {
    if (isAppError(e) && e.code === 'CONFLICT') return { ok: false, errors: { name: `An organisation named ${v.name} already exists` } }
    throw e
  }
  for (const c of ['org', 'users', 'sup_new_accounts']) database.store.emit({ org: PLATFORM_ORG, collection: c, id: '*', action: 'insert', uid: actor.uid, session: actor.session })
  context.logger.info({ org: v.name, admin: uid, by: actor.uid, from: v.from ?? null }, 'new account created')
  let mailed = true
  try {
    if (token) await sendInviteMail(context, { to: v.email, firstname: v.firstname, facility: v.fullName, inviter: 'Canopy', token, origin })
    else await sendAuthorizationMail(context, { to: v.email, firstname: v.firstname, facility: v.fullName, origin })
  } catch (err) {
    mailed = false
    context.logger.error({ err, to: v.email }, 'the new account mail could not be sent')
  }
  return { ok: true, org: v.name, uid, mailed, moved: !!v.from }
}

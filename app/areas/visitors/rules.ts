/**
 * The visitor log's rules (issue 27 item 2), shared by the kiosk form and every write path: a visit
 * is signed in with a name, a host, a purpose, the visitor's ID checked by staff and the site's
 * visitor agreement accepted (`nda_signed`). Pure: browser and server.
 */
import { isGiven, type SaveRule } from '../../forms/save-rules'

export const VISITS = 'vis_log'

/** The agreement a visitor accepts on the kiosk (the facility's name goes in its first line). */
export const visitorAgreement = (facility: string) =>
  `I am visiting ${facility}, a licensed cannabis facility. I will stay with my host or an escort at all times, wear my visitor badge where it can be seen, ` +
  'not take photographs or recordings without permission, not remove any product or sample, and follow the safety and security instructions of staff. ' +
  'I understand that my visit is recorded and that state regulators may inspect this log.'

const yes = (v: unknown) => typeof v === 'string' && v.trim().toLowerCase() === 'yes'

/** A new visit: who, whom they visit, why, ID checked, agreement accepted. */
export const signInRule: SaveRule = (r, ctx) => {
  if (ctx.mode !== 'create') return { kind: 'continue' }
  const missing: string[] = []
  if (!isGiven(r.visitor)) missing.push('visitor')
  if (!isGiven(r.purpose)) missing.push('purpose')
  if (!isGiven(r.host_uid) && !isGiven(r.host)) missing.push('host_uid')
  if (missing.length) return { kind: 'error', message: 'Fill in the visitor’s name, whom they visit and why.', fields: missing }
  if (!yes(r.id_checked)) return { kind: 'error', message: 'A member of staff must check the visitor’s ID before they sign in.', fields: ['id_checked'] }
  if (!yes(r.nda_signed)) return { kind: 'error', message: 'The visitor must accept the visitor agreement to sign in.', fields: ['nda_signed'] }
  return { kind: 'continue' }
}

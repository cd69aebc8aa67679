/** A posted form as an object: a field given more than once (checkboxes) becomes a list. */
export function formObject(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of form.entries()) {
    if (typeof v !== 'string') continue
    const cur = out[k]
    out[k] = cur === undefined ? v : Array.isArray(cur) ? [...cur, v] : [cur, v]
  }
  return out
}

/** The actor of a signed-in form post: who, on whose behalf, which request and session. */
export const actorOfSession = (s: { user: { uid: string; role: string }; session: { orig_uid: string; id_hash: string } }, requestId?: string) => ({
  uid: s.user.uid,
  origUid: s.session.orig_uid,
  role: s.user.role,
  requestId,
  session: s.session.id_hash,
})

/**
 * What a person typed but had not saved when idleness signed them out (issue 32 item 7): kept in
 * the tab (sessionStorage, so it never leaves the tablet and goes with the tab), put back once
 * when the same person is on the same page again after signing in, and dropped when someone else
 * signs in on the tablet. Only fields the person changed of forms that save (method post); never a
 * password, a hidden or a file field.
 */

const KEY = 'canopy:drafts'
/** a draft older than this is not put back: the record may have moved on */
const KEEP_MS = 12 * 60 * 60 * 1000

type Field = { name: string; value: string; checked?: boolean }
interface FormDraft {
  /** the form's action attribute and its place among the page's saving forms: how it is found again */
  action: string
  index: number
  fields: Field[]
}
interface Drafts {
  uid: string
  path: string
  savedAt: number
  forms: FormDraft[]
}

const SKIP = new Set(['password', 'hidden', 'file', 'submit', 'button', 'reset', 'image'])

function savingForms(root: ParentNode): HTMLFormElement[] {
  return [...root.querySelectorAll('form')].filter((f) => f.method.toLowerCase() === 'post')
}

function changed(el: Element): Field | null {
  if (el instanceof HTMLInputElement) {
    if (!el.name || SKIP.has(el.type) || el.disabled) return null
    if (el.type === 'checkbox' || el.type === 'radio') return el.checked !== el.defaultChecked ? { name: el.name, value: el.value, checked: el.checked } : null
    return el.value !== el.defaultValue ? { name: el.name, value: el.value } : null
  }
  if (el instanceof HTMLTextAreaElement) return el.name && !el.disabled && el.value !== el.defaultValue ? { name: el.name, value: el.value } : null
  if (el instanceof HTMLSelectElement) {
    if (!el.name || el.disabled || el.multiple) return null
    const chosen = el.selectedOptions[0]
    return chosen && !chosen.defaultSelected ? { name: el.name, value: el.value } : null
  }
  return null
}

/** Keeps the changed fields of the page's saving forms; returns how many fields were kept. */
export function keepDrafts(uid: string, path: string, root: ParentNode = document): number {
  const forms: FormDraft[] = []
  savingForms(root).forEach((form, index) => {
    const fields = [...form.elements].map(changed).filter((f): f is Field => f !== null)
    if (fields.length) forms.push({ action: form.getAttribute('action') ?? '', index, fields })
  })
  try {
    if (forms.length) sessionStorage.setItem(KEY, JSON.stringify({ uid, path, savedAt: Date.now(), forms } satisfies Drafts))
    else sessionStorage.removeItem(KEY)
  } catch {
    return 0 // storage full or refused: nothing kept, nothing else to do
  }
  return forms.reduce((n, f) => n + f.fields.length, 0)
}

function read(): Drafts | null {
  try {
    const raw = sessionStorage.getItem(KEY)
    return raw ? (JSON.parse(raw) as Drafts) : null
  } catch {
    return null
  }
}

/** Sets a field so React and the form's own validation see it as typed. */
function put(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, f: Field) {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
    if (el.value !== f.value || el.checked === f.checked) return
    el.click()
    return
  }
  const proto = Object.getPrototypeOf(el) as object
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, f.value)
  el.dispatchEvent(new Event('input', { bubbles: true }))
  el.dispatchEvent(new Event('change', { bubbles: true }))
}

/**
 * Puts the drafts back when `uid` is on the page they were kept on, once; drops another user's.
 * Returns how many fields were put back (0: nothing to do).
 */
export function restoreDrafts(uid: string, path: string, root: ParentNode = document): number {
  const d = read()
  if (!d) return 0
  if (d.uid !== uid || Date.now() - d.savedAt > KEEP_MS) {
    sessionStorage.removeItem(KEY)
    return 0
  }
  if (d.path !== path) return 0
  sessionStorage.removeItem(KEY)
  const forms = savingForms(root)
  let n = 0
  for (const fd of d.forms) {
    const form = forms.find((f, i) => i === fd.index && (f.getAttribute('action') ?? '') === fd.action) ?? forms.find((f) => (f.getAttribute('action') ?? '') === fd.action)
    if (!form) continue
    for (const f of fd.fields) {
      const els = [...form.elements].filter((e): e is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement => (e as HTMLInputElement).name === f.name)
      const el = f.checked === undefined ? els[0] : els.find((e) => e.value === f.value)
      if (!el || (el instanceof HTMLInputElement && SKIP.has(el.type))) continue
      put(el, f)
      n++
    }
  }
  return n
}

/** The campaigns area's pure parts: merge fields (the save rule, filling, escaping) and the unsubscribe token. */
import { renderMail } from './render'
import { fillMergeFields, knownMergeFields, mergeFieldsIn, mergeValuesOf, unknownMergeFields } from './rules'
import { signUnsub, verifyUnsub } from './unsub-token.server'

const SECRET = 'a-test-secret-of-at-least-32-characters'

describe('merge fields', () => {
  it('finds each field once, spaces inside the braces allowed; names the unknown ones', () => {
    expect(mergeFieldsIn('Hi {{first_name}} of {{ company }}, {{first_name}}!')).toEqual(['first_name', 'company'])
    expect(unknownMergeFields('Hi {{frist_name}}', '<p>{{company}} {{discount}}</p>')).toEqual(['frist_name', 'discount'])
  })

  it('the save rule refuses a mail template with an unknown field (naming it and the field it is in), not an SMS one', () => {
    expect(knownMergeFields({ channel: 'Email', subject: 'Hi {{first_name}}', body: '{{company}}' }, { mode: 'create' })).toEqual({ kind: 'continue' })
    const r = knownMergeFields({ channel: 'Email', subject: 'Hi', body: '{{discount}}' }, { mode: 'update' })
    expect(r).toMatchObject({ kind: 'error', fields: ['body'] })
    expect(r.kind === 'error' && r.message).toMatch(/^Unknown merge field: \{\{discount\}\}\. Use \{\{first_name\}\}/)
    expect(knownMergeFields({ channel: 'SMS', subject: '', body: '{{window}}' }, { mode: 'create' })).toEqual({ kind: 'continue' })
  })

  it('fills a prospect’s values and escapes them in the HTML body', () => {
    const v = mergeValuesOf('crm_prospects', { contact: 'Ana María Ruiz', company: 'Bud & <Co>', email: 'ana@x.example' }, 'Greenleaf')
    expect(v).toMatchObject({ first_name: 'Ana', last_name: 'María Ruiz', company: 'Bud & <Co>', sender: 'Greenleaf' })
    expect(fillMergeFields('{{first_name}}/{{title}}', v)).toBe('Ana/')
    const m = renderMail({ subject: 'For {{company}}', body: '<p>Hi {{first_name}} at {{company}}</p>' }, v, 'http://h/Unsubscribe/t')
    expect(m.subject).toBe('For Bud & <Co>')
    expect(m.html).toContain('<p>Hi Ana at Bud &amp; &lt;Co&gt;</p>')
    expect(m.text).toContain('Hi Ana at Bud & <Co>')
    expect(m.text).toContain('Unsubscribe: http://h/Unsubscribe/t')
  })
})

describe('the unsubscribe token', () => {
  it('round-trips; any change, another secret or garbage is refused', () => {
    const tok = signUnsub(SECRET, { org: 'greenleaf', email: 'Ana@X.example', campaign: 'c1' })
    expect(verifyUnsub(SECRET, tok)).toEqual({ org: 'greenleaf', email: 'ana@x.example', campaign: 'c1' })
    const [p, s] = tok.split('.')
    const other = Buffer.from(JSON.stringify(['harbor', 'ana@x.example', 'c1'])).toString('base64url')
    for (const bad of [`${other}.${s}`, `${p}.${s.slice(1)}`, `${p}.${s}.x`, signUnsub(`${SECRET}!`, { org: 'greenleaf', email: 'ana@x.example', campaign: 'c1' }), '', '.', 'x'.repeat(3000)]) expect(verifyUnsub(SECRET, bad)).toBeNull()
  })
})

/**
 * The onboarding area's server half (decision 022): every write path that stores a user (the
 * generic form, /dt/v1/users, imports) keeps `props` an object checked by the one zod schema
 * (rules.ts userPropsSchema), and a user created without a uid gets its record id as uid.
 */
import type { ServerArea } from '../area'
import { registerFieldCleaner, registerWriteStep } from '../../records/write-hooks.server'
import { tableOf } from '../../db/sql'
import { badInput } from '../../utils/errors'
import { parseUserProps } from './rules'

export const serverArea: ServerArea = {
  name: 'onboarding',
  install() {
    registerFieldCleaner(
      'onboarding:user-props',
      (collection, f) => collection === 'users' && f.key === 'props',
      (v) => {
        const r = parseUserProps(v)
        if (!r.ok) throw badInput(r.message, { field: 'props' })
        return r.props
      },
    )
    registerWriteStep('users', 'onboarding:uid', async (tx, { org, saved }) => {
      if (typeof saved.uid === 'string' && saved.uid) return
      await tx.query(`UPDATE ${tableOf('users')} SET doc = jsonb_set(doc, '{uid}', to_jsonb(id)) WHERE org = $1 AND id = $2`, [org, saved._id])
    })
  },
}

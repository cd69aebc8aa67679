/** The delete confirmation page (a page, so it works without JavaScript): what will go, the question, Delete or Cancel. */
import { Form, Link, useNavigation } from '@remix-run/react'
import type { DeleteConfirm } from '../../screens/record-delete.server'
import { useT } from '../../i18n/t'
import { DeleteIcon } from '../icons'
import { FieldSummary } from '../ui'

export function DeleteConfirmView({ confirm }: { confirm: DeleteConfirm }) {
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="flex max-w-lg flex-col gap-4">
      <FieldSummary fields={confirm.summary} />
      <p role="alert" className="text-lg">
        {t('Are you sure you want to delete this item?')}
      </p>
      <Form method="post" className="flex gap-3">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="ts" value={confirm.ts} />
        <button type="submit" disabled={busy} className="inline-flex min-h-11 items-center gap-2 rounded-md bg-red-700 px-4 font-medium text-white hover:bg-red-600">
          <DeleteIcon /> {t('Delete')}
        </button>
        <Link to={confirm.back} className="inline-flex min-h-11 items-center rounded-md border border-slate-600 px-4 hover:bg-slate-800">
          {t('Cancel')}
        </Link>
      </Form>
    </div>
  )
}

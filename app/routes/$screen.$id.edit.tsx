/** /{screen}/{id}/edit: the edit form of a table screen (issue 6; a page, so it works without JavaScript). */
import type { MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { RecordForm } from '../components/form/record-form'
import { useT } from '../i18n/t'
import type { EditData } from '../screens/record-edit.server'
import { editAction, editLoader } from '../screens/record-route.server'
import { APP_NAME } from '../version'

export const loader = editLoader
export const action = editAction
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.title} · ${APP_NAME}` : APP_NAME }]

export default function EditRecord() {
  const data = useLoaderData<typeof loader>() as unknown as EditData
  const t = useT()
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {t('Edit')}: {t(data.schema.label)}
      </h1>
      <RecordForm data={data} />
    </section>
  )
}

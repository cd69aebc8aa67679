/** /CrmTemplate/{id}/preview: a mail template filled for a sample recipient, and the merge fields (issue 27 item 4). */
import { Link, useLoaderData } from '@remix-run/react'
import { Notice } from '../../components/ui'
import type { previewLoader } from './routes.server'
import { linkBtn, MailPreview } from './ui'

export function TemplatePreviewPage() {
  const d = useLoaderData<typeof previewLoader>()
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">Preview: {d.name}</h1>
      <p className="flex flex-wrap gap-2">
        <Link className={linkBtn} to={`/CrmTemplate/${encodeURIComponent(d.id)}/edit`}>
          Edit template
        </Link>
        <Link className={linkBtn} to={`/CrmCampaignCreate?template=${encodeURIComponent(d.id)}`}>
          Send as a campaign
        </Link>
      </p>
      {d.problem ? <Notice tone="error">{d.problem}</Notice> : null}
      <MailPreview label="Preview" to={d.preview.to} subject={d.preview.subject} html={d.preview.html} />
      <section aria-label="Merge fields">
        <h2 className="text-lg font-semibold">Merge fields</h2>
        <ul className="list-disc pl-6">
          {d.fields.map((f) => (
            <li key={f.key}>
              <code>{f.key}</code>: {f.what}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}

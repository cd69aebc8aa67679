/** The campaign screens' shared pieces: field and link styles, a mail's preview. */
export const input = 'min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 focus:border-canopy-400 focus:outline-none'
export const linkBtn = 'inline-flex min-h-11 items-center rounded-md border border-slate-600 px-4 hover:bg-slate-800'

/** A mail as its recipient sees it; the HTML body in a sandboxed frame (no scripts, no same-origin). */
export function MailPreview({ to, subject, html, label }: { to: string; subject: string; html: string; label: string }) {
  return (
    <section aria-label={label} className="flex flex-col gap-2 rounded-md border border-slate-700 p-3">
      <p>
        <span className="text-slate-400">To:</span> {to}
      </p>
      <p>
        <span className="text-slate-400">Subject:</span> <strong data-testid="preview-subject">{subject}</strong>
      </p>
      <iframe title={`${label}: body`} sandbox="" srcDoc={html} className="h-64 w-full rounded bg-white" />
    </section>
  )
}


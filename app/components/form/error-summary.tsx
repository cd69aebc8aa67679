/**
 * The error summary at the top of the edit form (issue 32 item 14): after a refused save, every
 * error at once, each message once with links to the fields that have it (a save rule's message
 * names several); the fields show their own error beside them too. The same with and without
 * JavaScript (conform's errors of the browser's check or of the action's answer).
 */

/** conform's error names → the top-level field: `dead_weight.qty` and `lines[0].qty` belong to `dead_weight` and `lines`. */
const fieldOf = (name: string) => name.split(/[.[]/)[0]

export function ErrorSummary({ errors, formErrorId, targets, t }: { errors: Record<string, string[] | undefined>; formErrorId: string; targets: Record<string, { href: string; label: string }>; t: (k: string) => string }) {
  const items = new Map<string, Array<{ href: string; label: string }>>()
  for (const [name, messages] of Object.entries(errors)) {
    const target = name ? targets[fieldOf(name)] : undefined
    for (const m of messages ?? []) {
      const links = items.get(m) ?? []
      if (target && !links.some((l) => l.href === target.href)) links.push(target)
      items.set(m, links)
    }
  }
  if (!items.size) return null
  return (
    <div role="alert" aria-labelledby="form-error-title" className="rounded-md border border-red-500 bg-red-950 p-3 text-red-100">
      <p id="form-error-title" className="font-semibold">
        {t('Error')}
      </p>
      <ul id={formErrorId} className="flex list-disc flex-col gap-1 pl-5">
        {[...items].map(([message, links]) => (
          <li key={message}>
            {message}
            {links.length ? (
              <span className="ml-1">
                (
                {links.map((l, i) => (
                  <span key={l.href}>
                    {i ? ', ' : ''}
                    <a href={l.href} className="inline-flex min-h-11 items-center text-red-200 underline">
                      {l.label}
                    </a>
                  </span>
                ))}
                )
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  )
}

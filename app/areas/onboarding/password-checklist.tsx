/**
 * SPEC §5's password rules as a checklist beside the new password: without JavaScript a plain list
 * of what is needed (the server names what failed); with it each rule ticks as it is met.
 */
import { PASSWORD_RULES } from './rules'
import { CheckIcon, CloseIcon, DotIcon } from '../../components/icons'

export function PasswordChecklist({ value, live, failed }: { value: string; live: boolean; failed?: string[] }) {
  return (
    <ul id="password-rules" aria-label="Password rules" aria-live={live ? 'polite' : undefined} className="flex flex-col gap-1 text-sm">
      {PASSWORD_RULES.map((r) => {
        const ok = live ? r.test(value) : failed ? !failed.includes(r.id) : null
        return (
          <li key={r.id} data-rule={r.id} data-ok={ok === null ? undefined : ok ? 'yes' : 'no'} className={ok === null ? 'text-slate-300' : ok ? 'text-canopy-300' : 'text-red-300'}>
            <span className="inline-flex align-middle">{ok === null ? <DotIcon /> : ok ? <CheckIcon /> : <CloseIcon />}</span> {r.label}
            {ok === false ? <span className="sr-only"> (not met)</span> : ok ? <span className="sr-only"> (met)</span> : null}
          </li>
        )
      })}
    </ul>
  )
}

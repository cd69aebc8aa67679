/**
 * With JavaScript: a tooltip that follows the pointer or focus over any [data-tip] mark (tablets
 * have no hover titles), and a live refresh — a change to a table the board reads (the `table`
 * events of /events) reloads the loader's data, at most once per 2 s.
 */
import { useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { TABLE_EVENT } from '../../components/connection'

export function useLiveRefresh(collections: string[]): number {
  const { revalidate } = useRevalidator()
  const [n, setN] = useState(0)
  const key = collections.join(',')
  useEffect(() => {
    const watch = new Set(key.split(','))
    let timer: ReturnType<typeof setTimeout> | undefined
    const on = (e: Event) => {
      if (!watch.has((e as CustomEvent<{ collection?: string }>).detail?.collection ?? '')) return
      clearTimeout(timer)
      timer = setTimeout(() => {
        setN((x) => x + 1)
        revalidate()
      }, 2000)
    }
    window.addEventListener(TABLE_EVENT, on)
    return () => {
      clearTimeout(timer)
      window.removeEventListener(TABLE_EVENT, on)
    }
  }, [key, revalidate])
  return n
}

export function Tooltip() {
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const show = (e: Event) => {
      const el = (e.target as Element | null)?.closest?.('[data-tip]')
      if (!el) return setTip(null)
      const pe = e as PointerEvent
      const box = el.getBoundingClientRect()
      const x = pe.clientX || box.left + box.width / 2
      const y = pe.clientY || box.top
      setTip({ text: el.getAttribute('data-tip') ?? '', x, y })
    }
    const hide = () => setTip(null)
    document.addEventListener('pointermove', show)
    document.addEventListener('focusin', show)
    document.addEventListener('scroll', hide, true)
    return () => {
      document.removeEventListener('pointermove', show)
      document.removeEventListener('focusin', show)
      document.removeEventListener('scroll', hide, true)
    }
  }, [])
  if (!tip) return null
  return (
    <div ref={ref} role="tooltip" data-testid="chart-tooltip" className="pointer-events-none fixed z-50 max-w-xs rounded-md border border-slate-600 bg-slate-900 px-2 py-1 text-sm text-slate-100 shadow-lg" style={{ left: Math.min(tip.x + 12, (typeof window === 'undefined' ? 1000 : window.innerWidth) - 260), top: tip.y + 16 }}>
      {tip.text}
    </div>
  )
}

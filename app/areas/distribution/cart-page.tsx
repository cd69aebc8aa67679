/**
 * /DisCart (Create Order): pick a client, add lines from packages on hand or from the price list,
 * see the totals the server computed, submit. Every control is a plain form (no JavaScript
 * needed); with JavaScript the search runs as you type and each row shows its line total as you
 * type (money.ts, the same rounding the server applies).
 */
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { Button, Notice } from '../../components/ui'
import type { cartAction, cartLoader } from './cart-route.server'
import { fmtMilli, lineCents, parseCents, parseMilli, parsePercentBp, usd } from './money'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100'
const th = 'p-2 font-medium'

function AddRow({ source, refId, label, sub, unit, priceCents, max, q }: { source: 'package' | 'product'; refId: string; label: string; sub: string; unit: string; priceCents: number; max?: number; q: string }) {
  const [qty, setQty] = useState('')
  const [price, setPrice] = useState('')
  const [disc, setDisc] = useState('')
  const m = parseMilli(qty)
  const p = price.trim() ? parseCents(price) : priceCents
  const d = parsePercentBp(disc)
  const preview = m !== null && p !== null && d !== null ? usd(lineCents(m, p, d)) : ''
  return (
    <tr className="border-t border-slate-800" data-testid={`add-${source}`} data-ref={refId}>
      <td className="p-2">
        <span className="block font-medium">{label}</span>
        <span className="text-xs text-slate-400">{sub}</span>
      </td>
      <td className="p-2" colSpan={4}>
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="source" value={source} />
          <input type="hidden" name="ref" value={refId} />
          <input type="hidden" name="q" value={q} />
          <label className="flex flex-col text-xs text-slate-300">
            Qty ({unit})
            <input name="qty" inputMode="decimal" required aria-label={`Quantity of ${label}`} value={qty} onChange={(e) => setQty(e.target.value)} className={`${input} w-24`} placeholder={max !== undefined ? `≤ ${max}` : ''} />
          </label>
          <label className="flex flex-col text-xs text-slate-300">
            Unit price $
            <input name="price" inputMode="decimal" aria-label={`Unit price of ${label}`} value={price} onChange={(e) => setPrice(e.target.value)} className={`${input} w-28`} placeholder={(priceCents / 100).toFixed(2)} />
          </label>
          <label className="flex flex-col text-xs text-slate-300">
            Discount %
            <input name="discount" inputMode="decimal" aria-label={`Discount on ${label}`} value={disc} onChange={(e) => setDisc(e.target.value)} className={`${input} w-20`} placeholder="0" />
          </label>
          <Button type="submit" aria-label={`Add ${label}`}>Add</Button>
          {preview ? <span className="min-h-11 py-3 text-sm text-slate-300" data-testid="line-preview">= {preview}</span> : null}
        </Form>
      </td>
    </tr>
  )
}

export function CartPage() {
  const d = useLoaderData<typeof cartLoader>()
  const a = useActionData<typeof cartAction>()
  const nav = useNavigation()
  const submit = useSubmit()
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])
  // a search typed and then sent (Search, Enter) or any other form sent before the pause ends: the
  // pending search-as-you-type must not fire after it (it would cancel an Add on its way)
  useEffect(() => {
    if (nav.state === 'submitting') clearTimeout(timer.current)
  }, [nav.state])
  const err = a && 'error' in a ? a : null
  const t = d.totals
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">Create Order</h1>
      {err ? <Notice tone="error">{err.error}</Notice> : null}

      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="client" />
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          Client
          <select name="client" aria-label="Client" defaultValue={d.client?.id ?? ''} className={input} required>
            <option value="" disabled>Choose a client…</option>
            {d.clients.map((c) => (
              <option key={c.id} value={c.id} disabled={c.expired}>
                {c.name} · {c.type} · {c.license}{c.expired ? ' (license expired)' : ''}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" tone="plain">Use this client</Button>
        {d.client ? (
          <p className="text-sm text-slate-300" data-testid="cart-client">
            <strong>{d.client.name}</strong> · {d.client.type} · License {d.client.license} · {d.client.state} · Terms {d.client.terms}
          </p>
        ) : null}
      </Form>

      <h2 className="text-lg font-semibold">Lines</h2>
      {d.lines.length ? (
        <table className="w-full text-left text-sm" data-testid="cart-lines">
          <thead className="text-slate-400">
            <tr><th className={th}>Item</th><th className={th}>Package</th><th className={`${th} text-right`}>Qty</th><th className={`${th} text-right`}>Unit price</th><th className={`${th} text-right`}>Discount</th><th className={`${th} text-right`}>Line total</th><th className={th}></th></tr>
          </thead>
          <tbody>
            {d.lines.map((l, i) => (
              <tr key={l.id} className="border-t border-slate-800" data-testid="cart-line">
                <td className="p-2">{l.name}</td>
                <td className="p-2 font-mono text-xs">{l.tag || '—'}</td>
                <td className="p-2 text-right">{fmtMilli(l.qtyMilli)} {l.unit}</td>
                <td className="p-2 text-right">{usd(l.priceCents)}</td>
                <td className="p-2 text-right">{l.discountBp ? `${l.discountBp / 100}%` : '—'}</td>
                <td className="p-2 text-right" data-testid="line-total">{usd(t.lines[i].totalCents)}</td>
                <td className="p-2">
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="line" value={l.id} />
                    <Button tone="plain" aria-label={`Remove ${l.name}`}>Remove</Button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot className="text-right">
            <tr className="border-t border-slate-600"><td colSpan={5} className="p-2">Subtotal</td><td className="p-2" data-testid="subtotal">{usd(t.subtotalCents)}</td><td /></tr>
            {t.taxes.map((x) => (
              <tr key={x.id}><td colSpan={5} className="p-2 text-slate-300">{x.name} ({x.rateMilli / 1000}%)</td><td className="p-2" data-testid="tax">{usd(x.cents)}</td><td /></tr>
            ))}
            <tr className="font-semibold"><td colSpan={5} className="p-2">Total</td><td className="p-2" data-testid="total">{usd(t.totalCents)}</td><td /></tr>
          </tfoot>
        </table>
      ) : (
        <p className="text-slate-400">The cart is empty: add lines from the packages on hand or from the price list below.</p>
      )}
      {!d.client && d.lines.length ? <p className="text-sm text-amber-200">Taxes follow once a client is chosen (the rates of /SetTax for the client’s state).</p> : null}
      {d.lines.length ? (
        <div className="flex flex-wrap items-end gap-2">
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="submit" />
            <label className="flex flex-col gap-1 text-sm text-slate-300">
              Notes for the order
              <input name="notes" className={`${input} w-72`} maxLength={2000} />
            </label>
            <Button type="submit" disabled={nav.state === 'submitting'}>Submit order</Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="clear" />
            <Button tone="plain">Empty the cart</Button>
          </Form>
        </div>
      ) : null}

      <h2 className="text-lg font-semibold">Add lines</h2>
      <Form method="get" role="search" className="flex items-end gap-2" onSubmit={() => clearTimeout(timer.current)} onChange={(e) => {
        const form = e.currentTarget
        clearTimeout(timer.current)
        timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 250)
      }}>
        <label className="flex flex-col gap-1 text-sm text-slate-300">
          Search packages and products (tag, item, SKU, brand)
          <input name="q" type="search" defaultValue={d.q} className={`${input} w-80`} />
        </label>
        <Button type="submit" tone="plain">Search</Button>
      </Form>

      <h3 className="font-semibold">Packages on hand</h3>
      <table className="w-full text-left text-sm">
        <thead className="text-slate-400"><tr><th className={th}>Package (tag · item · available)</th><th className={th} colSpan={4}>Add</th></tr></thead>
        <tbody>
          {d.packages.map((p) => (
            <AddRow key={p.id} source="package" refId={p.id} label={p.tag} sub={`${p.item} · ${p.qty} ${p.unit} available · ${usd(p.priceCents)} list`} unit={p.unit} priceCents={p.priceCents} max={p.qty} q={d.q} />
          ))}
        </tbody>
      </table>
      {d.packagesMore ? <p className="text-xs text-slate-400">{d.packagesMore} more packages: narrow the search.</p> : null}

      <h3 className="font-semibold">Price list</h3>
      <table className="w-full text-left text-sm">
        <thead className="text-slate-400"><tr><th className={th}>Product</th><th className={th} colSpan={4}>Add</th></tr></thead>
        <tbody>
          {d.products.map((p) => (
            <AddRow key={p.id} source="product" refId={p.id} label={p.name} sub={`${p.sku} · ${usd(p.priceCents)} wholesale`} unit="units" priceCents={p.priceCents} q={d.q} />
          ))}
        </tbody>
      </table>
      {d.productsMore ? <p className="text-xs text-slate-400">{d.productsMore} more products: narrow the search.</p> : null}
    </section>
  )
}

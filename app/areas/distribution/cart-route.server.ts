/**
 * /DisCart (Create Order): the user's cart, the clients to pick from, the packages on hand and the
 * price list (searched by `?q=` in the URL, so it works without JavaScript), and the totals as the
 * server computes them. Posts: `intent` client | add | remove | clear | submit; each one is a plain
 * form post answered by a redirect back (or the refusal beside the field it names).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { areaAccess, refusalAsForm, str } from './access.server'
import { addCartLine, clearCart, clientTaxes, getCart, linesOf, measureOf, priced, removeCartLine, setCartClient, submitCart } from './cart.server'
import { parseCents } from './money'

export const CART_PATH = '/DisCart'
const like = (s: unknown, q: string) => String(s ?? '').toLowerCase().includes(q)

export async function cartLoader({ request, context }: LoaderFunctionArgs) {
  const { org, uid } = await areaAccess(request, context, CART_PATH)
  const db = context.database
  const url = new URL(request.url)
  const q = (url.searchParams.get('q') ?? '').trim().toLowerCase().slice(0, 60)
  const cart = await getCart(db, org, uid)
  const [clientsAll, productsAll, invAll] = await Promise.all([db.store.find(org, 'set_clients', {}, 500), db.store.find(org, 'dis_products', {}, 2000), db.store.find(org, 'dis_inventory', {}, 5000)])
  const now = Date.now()
  const clients = clientsAll
    .filter((c) => c.IsUsed !== 'no')
    .map((c) => ({ id: c._id, name: String(c.name ?? ''), license: String(c.license ?? ''), type: String(c.client_type ?? ''), state: String(c.state ?? ''), city: String(c.city ?? ''), expired: !!c.license_exp && new Date(String(c.license_exp)).getTime() < now }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const productName = new Map(productsAll.map((p) => [p._id, String(p.name ?? '')]))
  const productPrice = new Map(productsAll.map((p) => [p._id, parseCents(p.wholesale ?? 0) ?? 0]))
  const packages = invAll
    .map((p) => ({ id: p._id, tag: String(p.tag ?? ''), item: productName.get(String(p.product)) ?? '', ...measureOf(p.qty), priceCents: productPrice.get(String(p.product)) ?? 0 }))
    .filter((p) => p.qty > 0 && (!q || like(p.tag, q) || like(p.item, q)))
    .sort((a, b) => a.item.localeCompare(b.item) || a.tag.localeCompare(b.tag))
  const products = productsAll
    .filter((p) => p.IsUsed !== 'no' && p.active !== 'no' && (!q || like(p.name, q) || like(p.sku, q) || like(p.brand, q)))
    .map((p) => ({ id: p._id, name: String(p.name ?? ''), sku: String(p.sku ?? ''), priceCents: parseCents(p.wholesale ?? 0) ?? 0 }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const client = cart?.client ? clientsAll.find((c) => c._id === cart.client) ?? null : null
  const taxes = await clientTaxes(db, org, client)
  const lines = linesOf(cart)
  return json({
    q,
    client: client ? { id: client._id, name: String(client.name), license: String(client.license ?? ''), type: String(client.client_type ?? ''), state: String(client.state ?? ''), terms: String(cart?.terms ?? client.terms ?? '') } : null,
    clients,
    lines,
    taxes: taxes.map((t) => ({ id: t.id, name: t.name, rate: t.rate })),
    totals: priced(lines, taxes),
    packages: packages.slice(0, 25),
    packagesMore: Math.max(0, packages.length - 25),
    products: products.slice(0, 25),
    productsMore: Math.max(0, products.length - 25),
  })
}

export async function cartAction({ request, context }: ActionFunctionArgs) {
  const { org, uid, actor } = await areaAccess(request, context, CART_PATH)
  const db = context.database
  const f = await request.formData()
  const intent = str(f, 'intent')
  const back = `${CART_PATH}${str(f, 'q') ? `?q=${encodeURIComponent(str(f, 'q'))}` : ''}`
  return refusalAsForm(async () => {
    if (intent === 'client') await setCartClient(db, actor, org, uid, str(f, 'client'))
    else if (intent === 'add') await addCartLine(db, actor, org, uid, { source: str(f, 'source'), ref: str(f, 'ref'), qty: str(f, 'qty'), price: str(f, 'price'), discount: str(f, 'discount') })
    else if (intent === 'remove') await removeCartLine(db, actor, org, uid, str(f, 'line'))
    else if (intent === 'clear') await clearCart(db, actor, org, uid)
    else if (intent === 'submit') {
      const order = await submitCart(db, actor, org, uid, str(f, 'notes'))
      return redirect(`/DisSales/${order._id}?done=created`)
    } else return json({ error: 'Unknown action.', field: null }, { status: 400 })
    return redirect(back)
  })
}

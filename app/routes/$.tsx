/** Any path that no route claims: a real 404 rendered by the root error boundary. */
export const loader = () => {
  throw new Response('There is no page at this address.', { status: 404, statusText: 'There is no page at this address.' })
}

export default function NotFound() {
  return null
}

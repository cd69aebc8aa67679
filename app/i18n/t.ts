/** `t(key)`: the text of a phrase-map key in the user's language, or the key itself. */
import { useRouteLoaderData } from '@remix-run/react'

export function translate(phrases: Record<string, string> | undefined, key: string): string {
  return phrases?.[key] ?? key
}

export function useT(): (key: string) => string {
  const root = useRouteLoaderData('root') as { phrases?: Record<string, string> } | undefined
  return (key) => translate(root?.phrases, key)
}

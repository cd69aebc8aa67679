/** `t(key)`: the text of a phrase-map key in the user's language, or the key itself. */
import { useRouteLoaderData } from '@remix-run/react'
import { useCallback } from 'react'

export function translate(phrases: Record<string, string> | undefined, key: string): string {
  return phrases?.[key] ?? key
}

export function useT(): (key: string) => string {
  const root = useRouteLoaderData('root') as { phrases?: Record<string, string> } | undefined
  const phrases = root?.phrases
  // stable while the phrases are the same: components may memoise on it
  return useCallback((key: string) => translate(phrases, key), [phrases])
}

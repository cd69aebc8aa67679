/**
 * The Content-Security-Policy nonce of the page being rendered (decision 034): the server puts
 * this response's nonce here (entry.server.tsx) and root.tsx gives it to every inline script.
 * In the browser it is empty: browsers hide a nonce from scripts, and hydration does not need it.
 */
import { createContext, useContext } from 'react'

export const NonceContext = createContext<string | undefined>(undefined)
export const useNonce = () => useContext(NonceContext)

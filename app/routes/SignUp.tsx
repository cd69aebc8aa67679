import type { LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'

/** SPEC §2.2: sign-up happens on the provider's page (SIGNUP_URL). */
export const loader = ({ context }: LoaderFunctionArgs) => redirect(context.env.SIGNUP_URL)

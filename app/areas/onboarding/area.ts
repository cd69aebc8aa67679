/** The onboarding area's browser-safe half (decision 022): its rules are plain zod (rules.ts), nothing to register. */
import type { Area } from '../area'

export const area: Area = { name: 'onboarding' }

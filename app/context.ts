/** What server.ts hands every loader and action (Remix load context). */
import type { Logger } from 'pino'
import type { Env } from './config/env.server'
import type { Database } from './db/index.server'

export interface CanopyContext {
  env: Env
  database: Database
  logger: Logger
  requestId: string
  /** the client's address as Express saw it (trust proxy: loopback) */
  clientIp?: string
}

declare module '@remix-run/node' {
  interface AppLoadContext extends CanopyContext {}
}

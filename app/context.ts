/** What server.ts hands every loader and action (Remix load context). */
import type { Logger } from 'pino'
import type { Env } from './config/env.server'
import type { Database } from './db/index.server'
import type { EventHub } from './events/event-hub.server'
import type { Bus } from './bus/bus.server'
import type { ReadingIngest } from './sensors/ingest.server'

export interface CanopyContext {
  env: Env
  database: Database
  logger: Logger
  /** open server-sent event streams (GET /events) */
  events: EventHub
  /** the server's message-bus client (absent in tests that do not start one) */
  bus?: Bus
  /** the sensor ingest (app/sensors): bus readings and POST /dt/v1/{deviceID} (absent in tests that do not make one) */
  readings?: ReadingIngest
  requestId: string
  /** the client's address as Express saw it (trust proxy: the TRUST_PROXY setting) */
  clientIp?: string
  /** reads shared by the loaders of one GET request (app/server/request-memo.ts) */
  reads?: Map<string, Promise<unknown>>
  /** the Content-Security-Policy nonce of this response: the page's inline scripts carry it (decision 034) */
  cspNonce?: string
}

declare module '@remix-run/node' {
  // module augmentation: Remix's AppLoadContext is ours (the interface adds nothing of its own by design)
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends CanopyContext {}
}

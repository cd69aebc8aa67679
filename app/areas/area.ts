/**
 * What a business area (decision 022) offers the engine. The engine never imports an area: it
 * offers extension points (save rules, METRC push planners, after-create steps, seed groups) and
 * the composition roots — app/main.server.ts, app/entry.client.tsx, scripts/seed.ts, the test
 * setup — call installAreas() / installServerAreas(), which plug every area in.
 */
import type { Logger } from 'pino'
import type { Env } from '../config/env.server'
import type { Database } from '../db/index.server'
import type { EventHub } from '../events/event-hub.server'

/** The browser-safe half: pure rules shared by the browser's form checks and the server. */
export interface Area {
  name: string
  /** registers the area's pure rules (forms/save-rules.ts registerSaveRules); runs once per process */
  install?(): void
}

/** What a background job of an area gets from the process (mail senders, reminders, …). */
export interface AreaJobDeps {
  env: Env
  database: Database
  logger: Logger
  events: EventHub
}

/** The server half: server-only hooks and jobs. */
export interface ServerArea {
  name: string
  /** registers push planners, after-create steps, the seed group; runs once per process */
  install?(): void
  /** a job the process runs while it serves (started after HTTP listens); stop() on shutdown */
  start?(deps: AreaJobDeps): { stop(): Promise<void> | void }
}

/** Versioned migrations, applied in order at start. Never edit one that has shipped: add the next. */
import m001 from './001-platform'
import m002 from './002-meta-and-passwords'
import m003 from './003-auth'
import m004 from './004-device-keys'
import m005 from './005-sensor-readings'
import m006 from './006-metrc'
import m007 from './007-metrc-outbox'
import m008 from './008-metrc-drift'
import m009 from './009-metrc-push-reachability'
import m013 from './013-metrc-refusals'
import m017 from './017-invitations'
import m025 from './025-document-sequences'
import m030 from './030-calendar-feeds'
import m034 from './034-document-versions'
import m035 from './035-policy-acknowledgements'
import m038 from './038-messaging'
import m039 from './039-support-tickets'
import m040 from './040-mail-requests'
import m042 from './042-campaign-sends'
import m043 from './043-release-notes-seen'
import m044 from './044-csv-imports'
import m045 from './045-saved-views'

export interface Migration {
  version: number
  name: string
  sql: string
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: 'platform', sql: m001 },
  { version: 2, name: 'meta-and-passwords', sql: m002 },
  { version: 3, name: 'auth', sql: m003 },
  { version: 4, name: 'device-keys', sql: m004 },
  { version: 5, name: 'sensor-readings', sql: m005 },
  { version: 6, name: 'metrc', sql: m006 },
  { version: 7, name: 'metrc-outbox', sql: m007 },
  { version: 8, name: 'metrc-drift', sql: m008 },
  { version: 9, name: 'metrc-push-reachability', sql: m009 },
  { version: 13, name: 'metrc-refusals', sql: m013 },
  { version: 17, name: 'invitations', sql: m017 },
  { version: 25, name: 'document-sequences', sql: m025 },
  { version: 30, name: 'calendar-feeds', sql: m030 },
  { version: 34, name: 'document-versions', sql: m034 },
  { version: 35, name: 'policy-acknowledgements', sql: m035 },
  { version: 38, name: 'messaging', sql: m038 },
  { version: 39, name: 'support-tickets', sql: m039 },
  { version: 40, name: 'mail-requests', sql: m040 },
  { version: 42, name: 'campaign-sends', sql: m042 },
  { version: 43, name: 'release-notes-seen', sql: m043 },
  { version: 44, name: 'csv-imports', sql: m044 },
  { version: 45, name: 'saved-views', sql: m045 },
]

/** What a read-only Metrc screen shows about its table's sync (browser-safe; built by ./panel.server.ts). */
export interface MetrcSyncPanel {
  collection: string
  kind: 'reference' | 'data'
  /** this server can reach METRC (a vendor key, or the emulator) */
  configured: boolean
  linked: boolean
  license: string | null
  linkStatus: 'ok' | 'failing' | 'unchecked' | null
  failingSince: string | null
  linkError: string | null
  status: 'never' | 'idle' | 'running' | 'ok' | 'error'
  /** formatted in the facility's time zone */
  lastOk: string | null
  error: string | null
  errorSince: string | null
  /** synced successfully within twice its schedule */
  current: boolean
  rowsSeen: number
  rowsChanged: number
  canSync: boolean
  /** the connection form (the License screen, administrators only); the key itself never comes here */
  connection: { state: string; license: string; keyHint: string; states: string[] } | null
}

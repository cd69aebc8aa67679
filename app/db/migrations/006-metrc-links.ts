/**
 * METRC links and sync state (issue 9, decision 019). `metrc_links`: one row per organisation — its
 * state, license and user API key (sealed with app/utils/seal.server.ts; never a schema collection,
 * never sent to a browser), and whether METRC takes it (ok / failing / unchecked). `metrc_sync_state`:
 * one row per (organisation, Metrc collection) — the last run, the high-water lastModified of
 * incremental tables, what it saw and changed, and the error since when.
 */
export default `
CREATE TABLE metrc_links (
  org            text PRIMARY KEY,
  state          text NOT NULL,
  license        text NOT NULL,
  user_key       text NOT NULL,
  status         text NOT NULL DEFAULT 'unchecked' CHECK (status IN ('ok', 'failing', 'unchecked')),
  checked_at     timestamptz,
  failing_since  timestamptz,
  last_error     text,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     text NOT NULL
);

CREATE TABLE metrc_sync_state (
  org            text NOT NULL,
  collection     text NOT NULL,
  status         text NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'running', 'ok', 'error')),
  started_at     timestamptz,
  finished_at    timestamptz,
  ok_at          timestamptz,
  high_water     timestamptz,
  rows_seen      integer NOT NULL DEFAULT 0,
  rows_changed   integer NOT NULL DEFAULT 0,
  requests       integer NOT NULL DEFAULT 0,
  error          text,
  error_since    timestamptz,
  PRIMARY KEY (org, collection)
);
`

/**
 * METRC (issue 9): each facility's link to METRC (state, license, the user key sealed with
 * SESSION_SECRET — never shown, never logged — and whether METRC still takes it), and how each
 * Metrc table's sync went (when it last ran and last succeeded, how far lastModified was read,
 * what it saw and changed, how many requests it made, the last error). Private tables: never a
 * schema collection, never sent to a browser as they are.
 */
export default `
CREATE TABLE metrc_links (
  org            text PRIMARY KEY,
  state          text NOT NULL,
  license        text NOT NULL,
  key_sealed     text NOT NULL,
  status         text NOT NULL DEFAULT 'unchecked' CHECK (status IN ('unchecked', 'ok', 'failing')),
  checked_at     timestamptz,
  failing_since  timestamptz,
  last_error     text,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     text NOT NULL
);

CREATE TABLE metrc_sync (
  org           text NOT NULL,
  collection    text NOT NULL,
  status        text NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'running', 'failed')),
  started_at    timestamptz,
  finished_at   timestamptz,
  ok_at         timestamptz,
  high_water    timestamptz,
  rows_seen     integer NOT NULL DEFAULT 0,
  rows_changed  integer NOT NULL DEFAULT 0,
  requests      integer NOT NULL DEFAULT 0,
  error         text,
  PRIMARY KEY (org, collection)
);
`

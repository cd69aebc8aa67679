/**
 * METRC drift (issue 9 item 7): where Canopy's records and METRC's disagree for the same tag, one
 * row per (compared table, tag, field) difference, found after a sync:
 *   open      waiting for a person to pick a side (at most one open row per table, tag and field)
 *   resolved  a person picked a side: 'canopy' (METRC to be changed: push_id names the outbox
 *             item) or 'metrc' (the Canopy record took METRC's value); who and when
 *   cleared   the two sides agreed again without a decision (or the pair no longer exists)
 * A resolved row stays resolved while both values stay what they were when it was resolved;
 * settled_at is when the two sides were first seen agreeing after the decision (the push arrived,
 * or Canopy took METRC's value): from then on a difference is new drift, whatever its values.
 * metrc_drift_base keeps, per tag, the value of each field at the last comparison where Canopy and
 * METRC agreed: the "last synced value" that tells which side moved.
 * Private tables (never schema collections); decisions are also in audit_log.
 */
export default `
CREATE TABLE metrc_drift (
  org            text NOT NULL,
  id             text NOT NULL,
  tbl            text NOT NULL,
  tag            text NOT NULL,
  field          text NOT NULL,
  record_id      text NOT NULL,
  metrc_doc      text NOT NULL,
  canopy_value   text,
  synced_value   text,
  metrc_value    text,
  status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'cleared')),
  side           text CHECK (side IN ('canopy', 'metrc')),
  push_id        text,
  detected_at    timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  resolved_at    timestamptz,
  resolved_by    text,
  settled_at     timestamptz,
  PRIMARY KEY (org, id)
);
CREATE UNIQUE INDEX metrc_drift_open ON metrc_drift (org, tbl, tag, field) WHERE status = 'open';
CREATE INDEX metrc_drift_key ON metrc_drift (org, tbl, tag, field, resolved_at DESC);
CREATE INDEX metrc_drift_status ON metrc_drift (org, status, detected_at DESC);

CREATE TABLE metrc_drift_base (
  org   text NOT NULL,
  tbl   text NOT NULL,
  tag   text NOT NULL,
  vals  jsonb NOT NULL,
  at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org, tbl, tag)
);
`

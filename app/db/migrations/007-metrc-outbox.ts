/**
 * METRC pushes (issue 9 item 5): the outbox. One row per METRC object to send (one planting, one
 * waste record, one item…), written in the same transaction as the local change that calls for it,
 * sent by the worker in `seq` order per facility. Its status says where it is:
 *   held       waits for an approver (the facility's /MetrcPrefs say the action needs approval)
 *   pending    to be sent (next_at: not before; attempts so far)
 *   sent       handed to METRC, answer not yet recorded: after a crash or a lost answer the worker
 *              asks METRC whether it was applied before it sends again (never twice)
 *   confirmed  METRC took it (metrc_id when METRC answered an Id)
 *   failed     METRC refused it (message: METRC's own words); a user fixes and resends, or discards
 *   discarded  a user decided it will not go (reason)
 * A private table (never a schema collection); what users do to an item is in audit_log.
 */
export default `
CREATE TABLE metrc_outbox (
  org              text NOT NULL,
  id               text NOT NULL,
  seq              bigint GENERATED ALWAYS AS IDENTITY,
  endpoint         text NOT NULL,
  payload          jsonb NOT NULL,
  marker           text NOT NULL,
  label            text NOT NULL,
  source_collection text,
  source_id        text,
  status           text NOT NULL CHECK (status IN ('held', 'pending', 'sent', 'confirmed', 'failed', 'discarded')),
  attempts         integer NOT NULL DEFAULT 0,
  next_at          timestamptz NOT NULL DEFAULT now(),
  sent_at          timestamptz,
  done_at          timestamptz,
  metrc_id         bigint,
  message          text,
  approver_role    text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       text NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       text NOT NULL,
  PRIMARY KEY (org, id)
);
CREATE INDEX metrc_outbox_queue ON metrc_outbox (org, seq) WHERE status IN ('pending', 'sent');
CREATE INDEX metrc_outbox_status ON metrc_outbox (org, status, seq);
CREATE INDEX metrc_outbox_source ON metrc_outbox (org, source_collection, source_id);
`

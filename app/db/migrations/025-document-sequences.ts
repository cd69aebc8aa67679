/**
 * Distribution and finance (issue 24, decision 040): number sequences per facility (org) and kind
 * ("order", "invoice", "payment", "manifest"). Taken with INSERT … ON CONFLICT DO UPDATE … RETURNING
 * in the transaction that uses the number: the row lock serialises takers, and a rollback gives the
 * number back, so committed numbers have no gaps.
 */
export default `
CREATE TABLE doc_sequences (
  org   text NOT NULL,
  kind  text NOT NULL,
  last  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org, kind)
);
`

/**
 * Calendar feeds (issue 25, decision 043): one secret iCalendar link per user and facility; only
 * the SHA-256 of the secret is kept, so a leaked database does not leak the links. A new link
 * replaces the old one (revoked); removing the row revokes it.
 */
export default `
CREATE TABLE sch_feed_tokens (
  token_hash  text PRIMARY KEY,
  org         text NOT NULL,
  uid         text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sch_feed_tokens_user ON sch_feed_tokens (org, uid);
`

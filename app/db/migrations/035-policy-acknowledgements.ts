/**
 * Policies (issue 26 item 3): a user's acknowledgement that they read a published version of a
 * policy (pol_docs). One row per user and version: publishing a new version asks again. Kept apart
 * from the policy record (acknowledging is not an edit of the policy), written with an audit row.
 */
export default `
CREATE TABLE policy_acks (
  org        text NOT NULL,
  policy_id  text NOT NULL,
  version    integer NOT NULL,
  uid        text NOT NULL,
  name       text NOT NULL DEFAULT '',
  acked_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org, policy_id, version, uid)
);
CREATE INDEX policy_acks_user ON policy_acks (org, uid);
`

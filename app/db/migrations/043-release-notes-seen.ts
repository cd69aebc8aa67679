/**
 * Release notes (issue 27 item 5, app/areas/release-notes): the newest release-note version each
 * person has seen. The notes are the product's own (crm_release_notes under the platform
 * organisation), so what a person has seen is theirs wherever they work: one row per user, kept
 * under the platform organisation like the users themselves. Kept on the server so the "What's
 * new" notice is dismissed once for every device, with or without JavaScript.
 */
export default `
CREATE TABLE rel_seen (
  org      text NOT NULL,
  uid      text NOT NULL,
  version  text NOT NULL,
  seen_at  timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (org, uid)
);
`

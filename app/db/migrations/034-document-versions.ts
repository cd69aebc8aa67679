/**
 * Documents (issue 26 item 2): every save of a document — an HTML document (doc_html), a platform
 * page (sup_html), a policy (pol_docs) — is a version, written in the record's own transaction by
 * the documents area's write step (app/records/write-hooks.server.ts). A version keeps the title
 * and the sanitised HTML as saved, who saved it and when; `restored_from` names the version a
 * restore brought back. A private table (never a schema collection); rows are never changed.
 */
export default `
CREATE TABLE doc_versions (
  org           text NOT NULL,
  collection    text NOT NULL,
  doc_id        text NOT NULL,
  version       integer NOT NULL,
  title         text NOT NULL DEFAULT '',
  html          text NOT NULL DEFAULT '',
  author_uid    text NOT NULL,
  orig_uid      text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  restored_from integer,
  PRIMARY KEY (org, collection, doc_id, version)
);
`

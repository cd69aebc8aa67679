/**
 * CSV imports (issue 31 item 3, decision 070): a file read and checked is kept here between its
 * preview and the confirm (so the confirm posts only the import's id, with or without JavaScript),
 * and once imported it names the records it created, so "Undo import" removes exactly those.
 * `rows`: each data row's number, cells, the values the form would post and its problems;
 * `created`: [{ id, ts }] of the records as the import stored them. Every query filters by org.
 */
export default `
CREATE TABLE csv_imports (
  org          text NOT NULL,
  id           text NOT NULL,
  collection   text NOT NULL,
  screen       text NOT NULL,
  file_name    text NOT NULL,
  uid          text NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  state        text NOT NULL DEFAULT 'preview' CHECK (state IN ('preview', 'imported', 'undone')),
  columns      jsonb NOT NULL,
  rows         jsonb NOT NULL,
  created      jsonb,
  imported_at  timestamptz(3),
  imported_by  text,
  undone_at    timestamptz(3),
  undone_by    text,
  PRIMARY KEY (org, id)
);
CREATE INDEX csv_imports_by_time ON csv_imports (org, created_at);
`

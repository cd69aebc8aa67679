/**
 * Saved views of the table screens (issue 31 item 5, decision 073): a view is a table screen's URL
 * state (screens/table-url.ts LIST_KEYS, normalised, without the page) under a name. A view is its
 * owner's alone until shared with the facility (`org`). Names are unique, ignoring case, among one
 * owner's private views of a screen and among the shared views of a screen. A pin is one user's:
 * the pinned views show at the top of that user's side drawer. Every query filters by org.
 */
export default `
CREATE TABLE saved_views (
  org          text NOT NULL,
  id           text NOT NULL,
  screen       text NOT NULL,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  query        text NOT NULL,
  owner        text NOT NULL,
  shared       boolean NOT NULL DEFAULT false,
  created_at   timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  created_by   text NOT NULL,
  updated_at   timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  updated_by   text NOT NULL,
  PRIMARY KEY (org, id)
);
CREATE UNIQUE INDEX saved_views_private_name ON saved_views (org, screen, owner, lower(name)) WHERE NOT shared;
CREATE UNIQUE INDEX saved_views_shared_name ON saved_views (org, screen, lower(name)) WHERE shared;
CREATE TABLE saved_view_pins (
  org          text NOT NULL,
  uid          text NOT NULL,
  view_id      text NOT NULL,
  pinned_at    timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (org, uid, view_id),
  FOREIGN KEY (org, view_id) REFERENCES saved_views (org, id) ON DELETE CASCADE
);
`

/**
 * Messaging (issue 27 item 1, app/areas/messaging): conversations between people of one facility,
 * or with a team (team_groups). A conversation's members each keep how far they have read and how
 * far they have been mailed about; a post names its author and the documents attached to it.
 * Kept apart from the facility's msg_messages table (the old bulletin list): a conversation is not
 * a record anyone edits, and per-person read state does not belong in one shared document.
 * Times are kept to the millisecond (timestamptz(3)), as JavaScript holds them: a time read back and
 * written again (read up to, mailed up to) is then exactly the post's.
 */
export default `
CREATE TABLE msg_threads (
  org         text NOT NULL,
  id          text NOT NULL,
  subject     text NOT NULL,
  group_id    text,
  created_by  text NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  last_at     timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (org, id)
);
CREATE TABLE msg_members (
  org        text NOT NULL,
  thread_id  text NOT NULL,
  uid        text NOT NULL,
  read_at    timestamptz(3),
  mailed_at  timestamptz(3),
  PRIMARY KEY (org, thread_id, uid)
);
CREATE INDEX msg_members_user ON msg_members (org, uid);
CREATE TABLE msg_posts (
  org          text NOT NULL,
  id           text NOT NULL,
  thread_id    text NOT NULL,
  author       text NOT NULL,
  body         text NOT NULL,
  attachments  jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at   timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (org, id)
);
CREATE INDEX msg_posts_thread ON msg_posts (org, thread_id, created_at);
`

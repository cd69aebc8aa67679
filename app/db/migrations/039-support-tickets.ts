/**
 * Support tickets (issue 27 item 3, app/areas/support): what a user of a facility asks platform staff
 * (super), with the page they came from and a file, and the thread of replies both ways. The ticket
 * names the facility it was opened in (`org`); staff read every facility's. `requester_read_at` is how
 * far the requester has read the staff's replies (the shell's Support badge). Times to the millisecond.
 */
export default `
CREATE TABLE support_tickets_q (
  org           text NOT NULL,
  id            text NOT NULL,
  requester     text NOT NULL,
  subject       text NOT NULL,
  status        text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'open', 'waiting', 'solved')),
  page          text NOT NULL DEFAULT '',
  created_at    timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  updated_at    timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  requester_read_at timestamptz(3),
  PRIMARY KEY (org, id)
);
CREATE INDEX support_tickets_q_status ON support_tickets_q (status, updated_at);
CREATE INDEX support_tickets_q_requester ON support_tickets_q (org, requester);
CREATE TABLE support_posts (
  org         text NOT NULL,
  id          text NOT NULL,
  ticket_id   text NOT NULL,
  author      text NOT NULL,
  staff       boolean NOT NULL DEFAULT false,
  body        text NOT NULL,
  file        text NOT NULL DEFAULT '',
  created_at  timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (org, id)
);
CREATE INDEX support_posts_ticket ON support_posts (org, ticket_id, created_at);
`

/**
 * Mail sent on a stranger's request (issue 20 item 6): each password reset request, from which
 * address and for which email, so requests are throttled per address and per recipient.
 * `allowed` is false for a request the throttle refused (kept for the trail, never counted).
 * A platform table like the other auth_* tables (users live in the platform organisation).
 */
export default `
CREATE TABLE auth_mail_requests (
  seq         bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  kind        text NOT NULL CHECK (kind IN ('reset')),
  ip          text NOT NULL,
  email       text NOT NULL,
  allowed     boolean NOT NULL
);
CREATE INDEX auth_mail_requests_ip ON auth_mail_requests (kind, ip, at) WHERE allowed;
CREATE INDEX auth_mail_requests_email ON auth_mail_requests (kind, email, at) WHERE allowed;
`

/**
 * canopy_meta: small facts about this install (e.g. when the demo data was seeded).
 * auth_passwords: password hashes, kept out of the `users` documents so no document read can leak them.
 */
export default `
CREATE TABLE canopy_meta (
  key         text PRIMARY KEY,
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_passwords (
  uid         text PRIMARY KEY,
  hash        text NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
`

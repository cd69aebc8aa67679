/**
 * Device keys (issue 8): what a scale, reader, printer or sensor gateway signs in to the message
 * bus with. Only the key's SHA-256 is kept (the key is shown once, when it is issued); a device has
 * at most one live key (issuing a new one revokes the old).
 */
export default `
CREATE TABLE device_keys (
  key_hash    text PRIMARY KEY,
  org         text NOT NULL,
  device_id   text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  created_by  text NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX device_keys_device ON device_keys (org, device_id) WHERE revoked_at IS NULL;
`

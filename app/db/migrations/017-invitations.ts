/**
 * Invitations (issue 22): a one-time token of purpose 'invite' sets a new user's first password;
 * a revoked invitation is told apart from a used one.
 */
export default `
ALTER TABLE auth_one_time_tokens DROP CONSTRAINT IF EXISTS auth_one_time_tokens_purpose_check;
ALTER TABLE auth_one_time_tokens ADD CONSTRAINT auth_one_time_tokens_purpose_check CHECK (purpose IN ('reset', 'verify', 'invite'));
ALTER TABLE auth_one_time_tokens ADD COLUMN revoked_at timestamptz;
CREATE INDEX auth_one_time_tokens_uid ON auth_one_time_tokens (uid, purpose) WHERE used_at IS NULL AND revoked_at IS NULL;
`

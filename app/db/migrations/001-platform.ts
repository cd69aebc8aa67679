/** Platform tables: the collection registry, the audit trail, and SQL helpers used by indexes. */
export default `
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE TABLE canopy_collections (
  name        text PRIMARY KEY,
  table_name  text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The compliance trail: one row per write, in the same transaction as the write.
CREATE TABLE audit_log (
  seq         bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  org         text NOT NULL,
  collection  text NOT NULL,
  doc_id      text NOT NULL,
  action      text NOT NULL CHECK (action IN ('insert', 'update', 'delete')),
  uid         text,
  orig_uid    text,
  request_id  text,
  before      jsonb,
  after       jsonb
);
CREATE INDEX audit_log_doc ON audit_log (org, collection, doc_id, seq);
CREATE INDEX audit_log_at ON audit_log (org, at);

CREATE FUNCTION canopy_audit_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION canopy_audit_is_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION canopy_audit_is_append_only();

-- A JSON value as a number (numbers and numeric strings), else null. Used for type-aware sorting.
CREATE FUNCTION canopy_num(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN jsonb_typeof(v) = 'number' THEN (v #>> '{}')::numeric
    WHEN jsonb_typeof(v) = 'string' AND (v #>> '{}') ~ '^\\s*-?[0-9]{1,30}(\\.[0-9]{1,30})?\\s*$' THEN trim(v #>> '{}')::numeric
  END
$$;

-- A measure {qty, unit} in its base unit (g, ml or count), so mixed units sort correctly (SPEC §9 factors).
-- Self-contained: PostgreSQL 17 evaluates index expressions with an empty search_path.
CREATE FUNCTION canopy_measure(v jsonb) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN jsonb_typeof(v -> 'qty') = 'number' THEN (v ->> 'qty')::numeric
    WHEN jsonb_typeof(v -> 'qty') = 'string' AND (v ->> 'qty') ~ '^\\s*-?[0-9]{1,30}(\\.[0-9]{1,30})?\\s*$' THEN trim(v ->> 'qty')::numeric
  END * CASE v ->> 'unit'
    WHEN 'kg' THEN 1000 WHEN 'oz' THEN 28.3495 WHEN 'lb' THEN 453.592
    WHEN 'l' THEN 1000 WHEN 'fl oz' THEN 29.5735 WHEN 'gal' THEN 3785.41
    ELSE 1 END
$$;
`

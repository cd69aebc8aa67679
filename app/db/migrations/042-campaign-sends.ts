/**
 * Mail campaigns (issue 27 item 4, app/areas/campaigns; decision 058). A campaign record lives in
 * c_crm_campaigns (the generic table); `crm_campaign_runs` is its send: the template's subject and
 * body as they were when it started, who started it, and `start_key` (the create form's one-time
 * key: the same form posted twice starts one campaign). `crm_campaign_recipients` is one row per
 * address with its status (queued → sent | failed | skipped); `claimed_at` marks a row the sender
 * took, so a row claimed but never marked (the process stopped mid-send) is never sent again.
 */
export default `
CREATE TABLE crm_campaign_runs (
  org         text NOT NULL,
  campaign_id text NOT NULL,
  start_key   text NOT NULL,
  template_id text NOT NULL,
  subject     text NOT NULL,
  body        text NOT NULL,
  audience    text NOT NULL DEFAULT '',
  started_by  text NOT NULL,
  started_at  timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  finished_at timestamptz(3),
  PRIMARY KEY (org, campaign_id),
  UNIQUE (org, start_key)
);
CREATE INDEX crm_campaign_runs_open ON crm_campaign_runs (finished_at) WHERE finished_at IS NULL;
CREATE TABLE crm_campaign_recipients (
  org         text NOT NULL,
  campaign_id text NOT NULL,
  seq         integer NOT NULL,
  email       text NOT NULL,
  source      text NOT NULL CHECK (source IN ('crm_prospects', 'set_clients')),
  source_id   text NOT NULL,
  fields      jsonb NOT NULL DEFAULT '{}',
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'skipped')),
  reason      text NOT NULL DEFAULT '',
  claimed_at  timestamptz(3),
  done_at     timestamptz(3),
  PRIMARY KEY (org, campaign_id, seq),
  UNIQUE (org, campaign_id, email)
);
CREATE INDEX crm_campaign_recipients_queued ON crm_campaign_recipients (org, campaign_id, seq) WHERE status = 'queued';
`

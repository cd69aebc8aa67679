/**
 * METRC pushes (issue 9): since when the outbox worker has found METRC not answering for a facility
 * (set at the first failed push, cleared by the next answer), for the outbox screen's "METRC has not
 * answered since". (008 is the drift reconciliation's.)
 */
export default `
ALTER TABLE metrc_links ADD COLUMN push_unreachable_since timestamptz;
`

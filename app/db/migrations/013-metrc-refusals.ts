/**
 * METRC as it really answers (issue 21): a table METRC refuses for this key (the user lacks a
 * permission) is recorded with the permission it needs, without failing the link; a table the
 * facility's state does not have is noted; and a push whose "was it applied?" check needs to know
 * what METRC held just before it went (plant waste rows carry no id and no note) keeps that.
 */
export default `
ALTER TABLE metrc_sync ADD COLUMN refused text;
ALTER TABLE metrc_sync ADD COLUMN note text;
ALTER TABLE metrc_outbox ADD COLUMN check_before jsonb;
`

/**
 * Every call of the JSON API (SPEC §7), as registry entries (./registry.ts). Calls of SPEC §7 that
 * are still being added elsewhere are here too, marked `planned`, so the description is whole; when
 * one lands, drop its `planned` and point its schemas at the route's own zod schemas.
 *
 * tests/unit/openapi.test.ts checks that every API route file under app/routes has a path here.
 */
import { z } from 'zod'
import { ACCESS_TTL_S } from '../../auth/tokens.server'
import { BODY_MAX } from '../dt/records.server'
import { toJsonSchema as zodJson } from './json-schema'
import type { ApiOperation } from './registry'
import * as S from './schemas'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (description: string, schema?: z.ZodTypeAny | Record<string, unknown>) => ({ description, schema })
const TABLE = ref('TableName')
const RECORD = ref('Record')
const records = { type: 'array', items: RECORD }
const DEVICE_ID = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$', description: 'A sensor device id (sen_devices deviceID).' }
const id = z.object({ id: S.RecordId })
const table = z.object({ table: z.string().describe('The table (collection) name: one of TableName, or a table an operator added.') })
const tableId = table.merge(id)
const ifMatch = { 'If-Match': { description: S.IfMatch.description!, schema: S.IfMatch } }
const TableSchemaAnswer = z.object({ key: z.string(), label: z.string(), editable: z.boolean(), fields: z.array(z.record(z.unknown())), readonly: z.array(z.string()) }).passthrough().describe('The normalised table schema (SPEC §3).')

const auth: ApiOperation[] = [
  {
    method: 'post', path: '/auth/login', operationId: 'login', tag: 'Auth server', auth: 'none',
    summary: 'Sign in with email and password',
    description: 'The same rules and brute-force limits as the login form. Answers the user data with an access token and a refresh token. An account that has not accepted the licence agreement (EULA) in the console gets 403.',
    body: { schema: S.LoginBody },
    answers: { 200: json('Signed in.', S.LoginAnswer) },
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'TOO_MANY'],
  },
  {
    method: 'post', path: '/auth/refresh', operationId: 'refresh', tag: 'Auth server', auth: 'none',
    summary: 'Trade a refresh token for new tokens',
    description: `Rotation: the refresh token is used up; reusing one revokes every token of that sign-in. Access tokens last ${ACCESS_TTL_S / 60} minutes.`,
    body: { schema: S.RefreshBody },
    answers: { 200: json('New tokens.', S.Tokens) },
    errors: ['UNAUTHENTICATED', 'FORBIDDEN'],
  },
  {
    method: 'get', path: '/auth/me', operationId: 'me', tag: 'Auth server', auth: 'token',
    summary: 'Who the access token belongs to',
    answers: { 200: json('The caller.', S.MeAnswer) },
  },
  {
    method: 'get', path: '/auth/sendPasswordResetMail', operationId: 'sendPasswordResetMail', tag: 'Auth server', auth: 'none',
    summary: 'Send a password reset link',
    description: 'Always the same answer, whether or not the address has an account (SPEC §8). At most 10 requests from one client address and 5 for one email in 15 minutes, counted alike for every email: past that, 429 with the reason.',
    query: S.ResetQuery,
    answers: { 200: json('The SPEC §8 message.', S.MessageAnswer) },
    errors: ['TOO_MANY'],
  },
  {
    method: 'get', path: '/misc/switchorg', operationId: 'switchOrg', tag: 'Auth server', auth: 'token',
    summary: 'Tokens for another facility',
    description: 'For a facility the caller may enter (super: any). The tokens keep the user and the original user (acting as someone); the refresh token starts a new family.',
    query: S.SwitchOrgQuery,
    answers: { 200: json('Tokens for that facility.', S.SwitchOrgAnswer) },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'post', path: '/misc/devicekey', operationId: 'issueDeviceKey', tag: 'Organisation API', auth: 'token',
    summary: 'Issue a device key',
    description: 'Admins (and super) of the token\'s facility: a new key for one of its devices (sensor devices, label printers). The device signs in to the message bus with it and printers fetch labels with it; the previous key of that device stops working. Used by the device simulator (npm run devices).',
    body: { schema: S.DeviceKeyBody },
    answers: { 201: json('The credentials (the key is shown only now).', S.DeviceKeyAnswer) },
    errors: ['BAD_INPUT', 'FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'get', path: '/dt/v1/users', operationId: 'listUsers', tag: 'Auth server', auth: 'token',
    summary: 'Users',
    description: 'Everyone sees their own record; an admin the users of the facility the token works in; super anyone. Never a password, hash, token or secret.',
    query: S.UsersQuery,
    answers: { 200: json('User records.', { type: 'array', items: ref('Record_users') }) },
  },
  {
    method: 'get', path: '/dt/v1/users/{id}', operationId: 'getUser', tag: 'Auth server', auth: 'token',
    summary: 'One user, by record id or uid', pathParams: id,
    answers: { 200: json('The user record (without secrets).', ref('Record_users')) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get', path: '/dt/v1/org', operationId: 'listOrgs', tag: 'Auth server', auth: 'token',
    summary: 'Facilities the caller may enter',
    description: 'A few public fields each. With ?name=: that facility; with &return=wid or fullName: only that field.',
    query: S.OrgQuery,
    answers: { 200: json('Facilities, one facility, or { wid } / { fullName }.', { oneOf: [{ type: 'array', items: zodJson(S.PublicOrg) }, zodJson(S.PublicOrg), { type: 'object', properties: { wid: { type: 'array', items: { type: 'string' } } }, required: ['wid'] }, { type: 'object', properties: { fullName: { type: ['string', 'null'] } }, required: ['fullName'] }] }) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get', path: '/dt/v1/org/{id}', operationId: 'getOrg', tag: 'Auth server', auth: 'token',
    summary: 'One facility the caller may enter', pathParams: id,
    answers: { 200: json('Its public fields.', S.PublicOrg) },
    errors: ['NOT_FOUND'],
  },
  ...(['auth_workflows', 'sup_modules', 'auth_phrasemap', 'dictionary'] as const).map(
    (t): ApiOperation => ({
      method: 'get', path: `/dt/v1/${t}`, operationId: `list_${t}`, tag: 'Auth server', auth: 'token',
      summary: { auth_workflows: 'Workflows', sup_modules: 'Modules', auth_phrasemap: 'Phrase map (translations)', dictionary: 'Dictionary (sensor codes)' }[t],
      description: 'What every signed-in console loads; filters on the table\'s fields as for /dt/v1/{table}.',
      answers: { 200: json('Records.', { type: 'array', items: ref(`Record_${t}`) }) },
    }),
  ),
  {
    method: 'get', path: '/dt/v1/auth_provisions', operationId: 'listProvisions', tag: 'Auth server', auth: 'token',
    summary: 'Provisions of a facility the caller may enter', query: S.ProvisionsQuery,
    answers: { 200: json('Provision records.', { type: 'array', items: ref('Record_auth_provisions') }) },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'get', path: '/dt/v1/sch_{table}', operationId: 'getTableSchema', tag: 'Auth server', auth: 'token',
    summary: 'A table\'s schema by name',
    description: 'For a table the caller may read. (When a table is itself named sch_…, this path reads that table instead.)',
    pathParamSchemas: { table: TABLE },
    answers: { 200: json('The schema.', TableSchemaAnswer) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'get', path: '/dt/v1/set_preferences', operationId: 'listPreferences', tag: 'Auth server', auth: 'token',
    summary: 'Preference records of a user', query: S.PrefsQuery,
    description: "Your own; another user's only as super, or as an admin of the token's facility when that user works there too. The same rule for every preference call.",
    answers: { 200: json('Records.', { type: 'array', items: ref('Record_set_preferences') }) },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'post', path: '/dt/v1/set_preferences', operationId: 'createPreferences', tag: 'Auth server', auth: 'token',
    summary: 'Save preferences {uid, key, …}', body: { schema: S.PrefBody },
    answers: { 201: json('The record as stored.', ref('Record_set_preferences')) },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'get', path: '/dt/v1/set_preferences/{id}', operationId: 'getPreferences', tag: 'Auth server', auth: 'token',
    summary: 'One preference record', pathParams: id,
    answers: { 200: json('The record.', ref('Record_set_preferences')) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'patch', path: '/dt/v1/set_preferences/{id}', operationId: 'updatePreferences', tag: 'Auth server', auth: 'token',
    summary: 'Change a preference record (PUT works too)', pathParams: id, body: { schema: S.PrefBody },
    answers: { 200: json('The record as stored.', ref('Record_set_preferences')) },
    errors: ['NOT_FOUND'],
  },
  // ---- schema administration (SPEC §7, auth server; decision 011)
  {
    method: 'get', path: '/dt/v1/translator', operationId: 'translator', tag: 'Auth server', auth: 'token',
    summary: 'Schema translator: keys', query: S.TranslatorQuery,
    answers: { 200: json('The key, or the keys of a schema.', { type: 'object', additionalProperties: true }) },
  },
  {
    method: 'delete', path: '/dt/v1/collections/sch_{key}', operationId: 'deleteCollection', tag: 'Auth server', auth: 'token',
    summary: 'Delete a collection (translator)', pathParamSchemas: { key: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } },
    answers: { 200: json('Done.', { type: 'object', additionalProperties: true }) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'post', path: '/dt/v1/bulkupload/sch_{key}', operationId: 'bulkUpload', tag: 'Auth server', auth: 'token',
    summary: 'Bulk upload into a collection (translator)', pathParamSchemas: { key: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } },
    query: S.BulkUploadQuery, body: { schema: S.BulkUploadBody },
    answers: { 200: json('Done.', { type: 'object', additionalProperties: true }) },
    errors: ['FORBIDDEN'],
  },
]

const dt: ApiOperation[] = [
  {
    method: 'get', path: '/dt/v1/{table}', operationId: 'listRecords', tag: 'Organisation API', auth: 'token',
    summary: 'List records (equality filters), or count them',
    description:
      "Rows of the caller's facility in a table the caller's screens show. Any field of the table's schema (and _id, IsUsed, ed, delete) filters by equality: ?room=r1. " +
      'With ?count: { count } instead. A sensor device id in place of the table with ?last=1 answers its latest reading { deviceID, data: code → value, ts } (ts null before the first).',
    pathParamSchemas: { table: { anyOf: [TABLE, DEVICE_ID] } },
    query: S.ListQuery.extend({ last: S.LastReadingQuery.shape.last.optional() }),
    answers: { 200: json('Records of the table (see Record_{table}), { count }, or (?last=1 on a device id) the latest reading.', { oneOf: [records, zodJson(S.Count), zodJson(S.LastReading)] }) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'post', path: '/dt/v1/{table}', operationId: 'createRecord', tag: 'Organisation API', auth: 'token-or-device',
    summary: 'Create a record (or, on a sensor device id, send a reading)',
    description:
      `The same path as the edit form: the table's schema (Record_{table}), its save rules, referenced ids, row rights, an audit row and a change event. Body up to ${BODY_MAX.toLocaleString('en-US')} bytes; x-access-token only. ` +
      'A sensor device id in place of the table: a reading for gateways without MQTT, checked like one published on the bus but all or nothing (400 names the first bad code, value or time; 404 for a device not of the facility), answered once stored. ' +
      "Sent by the device itself (HTTP Basic auth: {org}/{deviceID} and its device key; its own id only, else 403) or with a token of a user whose screens show the devices. Body up to 4,096 bytes; no audit row.",
    pathParamSchemas: { table: { anyOf: [TABLE, DEVICE_ID] } },
    body: { schema: { anyOf: [RECORD, zodJson(S.ReadingBody)] }, description: "The fields of the table's record schema, Record_{table}; read-only ones are refused. On a device id: a reading." },
    answers: { 201: json('The record as stored, or the reading as stored.', { anyOf: [RECORD, zodJson(S.ReadingStored)] }), 200: json('A save rule stopped the write quietly.', S.Stopped) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'get', path: '/dt/v1/{table}/{id}', operationId: 'getRecord', tag: 'Organisation API', auth: 'token',
    summary: 'One record', pathParams: tableId, pathParamSchemas: { table: TABLE },
    answers: { 200: json('The record.', RECORD) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'put', path: '/dt/v1/{table}/{id}', operationId: 'updateRecord', tag: 'Organisation API', auth: 'token',
    summary: 'Update a record (partial; PATCH works too)',
    description: 'Only the keys sent change; `cts` and `ts` in the body are ignored (SPEC §7); a record sent back whole saves. The save rules run on the stored record merged with the change. If-Match (or ?ts=) refuses a lost update with 409.',
    pathParams: tableId, pathParamSchemas: { table: TABLE }, headers: ifMatch,
    body: { schema: RECORD, description: "Any of the fields of the table's record schema, Record_{table}." },
    answers: { 200: json('The record as stored.', { oneOf: [RECORD, zodJson(S.Stopped)] }) },
    errors: ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'],
  },
  {
    method: 'delete', path: '/dt/v1/{table}/{id}', operationId: 'deleteRecord', tag: 'Organisation API', auth: 'token',
    summary: 'Delete a record',
    description: 'Rows flagged delete = no can only be deleted by super. If-Match (or ?ts=) refuses with 409 when the record changed since it was read.',
    pathParams: tableId, pathParamSchemas: { table: TABLE }, headers: ifMatch,
    answers: { 200: json('The record as it was.', RECORD) },
    errors: ['FORBIDDEN', 'NOT_FOUND', 'CONFLICT'],
  },
  // ---- pipelines, sign-in flow records, sensors, OTA (SPEC §7, organisation API server)
  {
    method: 'post', path: '/misc/dbops', operationId: 'pipeline', tag: 'Organisation API', auth: 'token',
    summary: 'Run an aggregation pipeline over a table',
    description: "Compiled into one SQL statement over the caller's facility's rows, with bound parameters only. Table pages send active filter, date filter, search, sort and a $facet with skip/limit and the total count.",
    query: S.PipelineQuery, body: { schema: S.Pipeline },
    answers: { 200: json('The documents the pipeline produces.', S.TablePage) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'get', path: '/dt/v1/temp_processing', operationId: 'tempProcessing', tag: 'Organisation API', auth: 'token',
    summary: 'Is an account still being processed?', query: S.ProcessingQuery,
    answers: { 200: json('Processing records.', { type: 'array', items: ref('Record_temp_processing') }) },
  },
  {
    method: 'get', path: '/dt/v1/temp_eula', operationId: 'getEula', tag: 'Organisation API', auth: 'token',
    summary: 'EULA acceptance records',
    answers: { 200: json('Records.', { type: 'array', items: ref('Record_temp_eula') }) },
  },
  {
    method: 'post', path: '/dt/v1/temp_eula', operationId: 'acceptEula', tag: 'Organisation API', auth: 'token',
    summary: 'Record a EULA acceptance', body: { schema: ref('Record_temp_eula') },
    answers: { 201: json('The record as stored.', ref('Record_temp_eula')) },
  },
  {
    method: 'post', path: '/dt/v1/temp_credentials', operationId: 'submitCredentials', tag: 'Organisation API', auth: 'token',
    summary: 'Submit METRC credentials', body: { schema: ref('Record_temp_credentials') },
    answers: {
      201: json('Stored and checked against METRC: metrc_api valid, invalid (error_lic / error_metrc say which), pending (METRC did not answer; checked again later) or none (no METRC). The key is never echoed.', {
        type: 'object',
        additionalProperties: true,
        properties: { metrc_api: { type: 'string', enum: ['pending', 'valid', 'invalid', 'none'] }, error_lic: { type: 'string', enum: ['yes', 'no'] }, error_metrc: { type: 'string', enum: ['yes', 'no'] }, message: { type: 'string' } },
      }),
    },
  },
  {
    method: 'get', path: '/dt/v1/inf_global/{id}', operationId: 'getInfGlobal', tag: 'Organisation API', auth: 'token',
    summary: 'One global information record', pathParams: id,
    answers: { 200: json('The record.', ref('Record_inf_global')) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'post', path: '/dt/v1/temp_manage_intake', operationId: 'manageIntake', tag: 'Organisation API', auth: 'token',
    summary: 'Intake actions: metrc_global_pref_delete', body: { schema: S.ManageIntakeBody },
    answers: { 200: json('Done.', { type: 'object', additionalProperties: true }) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'delete', path: '/dt/v1/ota/{id}', operationId: 'deleteOtaRecord', tag: 'Organisation API', auth: 'token',
    summary: 'Delete an OTA (firmware) record', pathParams: id,
    answers: { 200: json('The record as it was.', ref('Record_ota')) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'delete', path: '/ota/{name}', operationId: 'deleteOtaFile', tag: 'Organisation API', auth: 'token',
    summary: 'Delete an OTA (firmware) file', pathParamSchemas: { name: { type: 'string', pattern: '^[A-Za-z0-9][\\w.-]{0,120}$' } },
    answers: { 200: json('Done.', { type: 'object', additionalProperties: true }) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
]

const files: ApiOperation[] = [
  {
    method: 'post', path: '/files/{org}', operationId: 'uploadFiles', tag: 'Files', auth: 'token-or-session',
    summary: 'Upload files (multipart, files[0])',
    description: "To the caller's own organisation only (platform files: super). The upload size limit is MAX_UPLOAD_MB; a body declared larger is refused before it is read. A refusal keeps nothing of the request.",
    pathParams: S.FilesPath, query: S.SubdirQuery,
    body: { schema: { type: 'object', properties: { 'files[0]': { type: 'string', contentMediaType: 'application/octet-stream', description: S.UploadBody.shape['files[0]'].description } }, required: ['files[0]'] }, contentType: 'multipart/form-data' },
    answers: { 200: json('The stored files.', S.UploadAnswer) },
    errors: ['FORBIDDEN', 'UNSUPPORTED'],
  },
  {
    method: 'get', path: '/getfiles/{org}/{name}', operationId: 'getFile', tag: 'Files', auth: 'token-or-session',
    summary: 'Download a file (the logo: /getfiles/{org}/logo.png)',
    description:
      "For signed-in users of that organisation (platform files: everyone signed in). csv and txt are always downloads. A download link from POST /files/{org}/token works without a session (?token=, expires after FILE_TOKEN_TTL_S). Browser refusals are plain text (400, 401, 403, 404); callers with x-access-token get the JSON envelope.",
    pathParams: S.FilePath, query: S.DownloadTokenQuery,
    answers: {
      200: { description: 'The file.', schema: { type: 'string', contentMediaType: 'application/octet-stream' }, contentTypes: ['image/png', 'image/jpeg', 'image/webp', 'application/pdf', 'text/plain'] },
      400: { description: 'Not a file name.', contentType: 'text/plain', schema: { type: 'string' } },
      401: { description: 'Sign in first.', contentType: 'text/plain', schema: { type: 'string' } },
      403: { description: 'The file belongs to another organisation.', contentType: 'text/plain', schema: { type: 'string' } },
      404: { description: 'No such file.', contentType: 'text/plain', schema: { type: 'string' } },
    },
  },
  {
    method: 'get', path: '/getfiles/{org}/', operationId: 'listFiles', tag: 'Files', auth: 'token-or-session',
    summary: "List an organisation's files (empty file name)",
    pathParams: S.FilesPath, query: S.DownloadTokenQuery,
    answers: { 200: json('The files.', S.FileList) },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'post', path: '/files/{org}/token', operationId: 'fileToken', tag: 'Files', auth: 'token-or-session',
    summary: 'A download link for one file (expires)',
    description: 'For a signed-in user of that organisation and a file that exists: { token, url, expires }; the url works without a session until FILE_TOKEN_TTL_S seconds have passed, for that file only.',
    pathParams: S.FilesPath,
    body: { schema: S.FileTokenBody },
    answers: { 200: json('The link.', S.FileTokenAnswer) },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  },
]

const reference: ApiOperation[] = [
  {
    method: 'get', path: '/api/openapi.json', operationId: 'openapi', tag: 'Reference', auth: 'token-or-session',
    summary: 'This description (OpenAPI 3.1)',
    description: 'For a signed-in caller: an access token, or the console session of a finished sign-in (what the /api/reference page links with). Never cached (Cache-Control: no-store).',
    answers: { 200: json('The OpenAPI document.', { type: 'object', additionalProperties: true }) },
  },
]

/** The whole API, in the order the reference page shows it. */
export const OPERATIONS: ApiOperation[] = [...auth, ...dt, ...files, ...reference]

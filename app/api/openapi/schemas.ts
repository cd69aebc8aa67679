/**
 * The zod schemas of the API's requests and answers that are not table records. Requests reuse the
 * schemas the routes parse with (sign-in rules, refresh, set_preferences, file names); answers are
 * written here from what the routes return (they build plain objects, not zod-checked ones).
 * Schemas of the calls whose routes parse by hand (pipelines, flow records, sensors, OTA, schema calls) follow their code and SPEC §7.
 */
import { z } from 'zod'
import { loginSchema, email, refreshBody } from '../../auth/rules'
import { ALLOWED } from '../../files/rules'
import { SAFE_NAME, SAFE_SUBDIR } from '../../files/store.server'
import { STATUS_OF, type ErrorCode } from '../../utils/errors'
import { PrefBody } from '../dt/platform.server'
import { LIST_DEFAULT, LIST_MAX, SKIP_MAX } from '../dt/records.server'

export { loginSchema as LoginBody, refreshBody as RefreshBody, PrefBody }

export const ERROR_CODES = Object.keys(STATUS_OF) as ErrorCode[]

/** The error envelope (app/api/respond.server.ts): one entry per problem. */
export const ErrorEnvelope = z
  .object({
    errors: z
      .array(
        z.object({
          code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]).describe('Stable code (app/utils/errors.ts); the HTTP status follows from it.'),
          message: z.string().describe('For people: what was wrong and, where it helps, what to send instead.'),
          field: z.string().optional().describe('The field, parameter or body key the problem is about.'),
        }),
      )
      .min(1),
  })
  .describe('Every refusal of the JSON API.')

const token = z.string().describe('A signed access token: send it as the x-access-token header.')
const refresh = z.string().describe('A refresh token for POST /auth/refresh (single use; rotated on every refresh).')
const expiresIn = z.number().int().describe('Seconds the access token is valid for.')

export const Tokens = z.object({ 'x-access-token': token, 'refresh-token': refresh, expiresIn })

export const LoginAnswer = z
  .object({
    _id: z.string(),
    uid: z.string(),
    email: z.string(),
    role: z.string(),
    org: z.string().describe('The home facility (organisation key).'),
    firstname: z.string(),
    lastname: z.string(),
    props: z.record(z.unknown()).describe('Facilities, modules and other account properties.'),
    eulaip: z.string(),
  })
  .merge(Tokens)

export const MeAnswer = z.object({ uid: z.string(), email: z.string(), role: z.string(), org: z.string(), origUid: z.string().describe('The user who signed in (differs when acting as another user).'), expires: z.string().datetime() })
export const ResetQuery = z.object({ email })
export const MessageAnswer = z.object({ message: z.string() })
export const SwitchOrgQuery = z.object({ org: z.string().max(64).describe('The facility to switch to, e.g. greenleaf.') })
export const SwitchOrgAnswer = z.object({ org: z.string() }).merge(Tokens)

/** GET /dt/v1/{table}: app/api/dt/records.server.ts (`filtersOf`, `intParam`). */
export const ListQuery = z.object({
  limit: z.number().int().min(0).max(LIST_MAX).optional().describe(`Rows to answer (default ${LIST_DEFAULT}, at most ${LIST_MAX}).`),
  skip: z.number().int().min(0).max(SKIP_MAX).optional().describe('Rows to skip (deep paging is the table pipeline\'s job: POST /misc/dbops).'),
  count: z.string().optional().describe('Present (any value, even empty): answer { count } instead of rows.'),
})
export const Count = z.object({ count: z.number().int().min(0) })
export const Stopped = z.object({ stopped: z.literal(true) }).describe('A save rule stopped the write without an error (nothing was saved).')
export const IfMatch = z.string().max(40).describe('The `ts` of the record as read: refuse with 409 if it changed since.')

export const RecordId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).describe('A record id.')

/** A record of any table: the keys of its table schema plus the server's. */
export const AnyRecord = z.object({ _id: z.string(), cts: z.string().optional(), ts: z.string().optional() }).passthrough()

export const OrgQuery = z.object({ name: z.string().optional().describe('A facility name or key: answer that one.'), return: z.enum(['wid', 'fullName']).optional().describe('With name: answer only this field, { wid } or { fullName }.') })
export const PublicOrg = z.object({ _id: z.string(), name: z.string().optional(), fullName: z.string().optional(), kind: z.string().optional(), state: z.string().optional(), timezone: z.string().optional(), server: z.string().optional(), compserver: z.string().optional(), fileserver: z.string().optional(), wid: z.array(z.string()).optional(), IsUsed: z.string().optional() })
export const UsersQuery = z.object({ email: z.string().optional().describe('Users with this email.'), orgonly: z.string().optional().describe('Present: only users of the facility the token works in.') })
export const ProvisionsQuery = z.object({ org: z.string().optional().describe('The facility (default: the token\'s).') })
export const PrefsQuery = z.object({ uid: z.string().optional().describe('Whose preferences (default: the caller; another user: admin and super only).') })

// ---------------------------------------------------------------- files

const fileName = z.string().regex(SAFE_NAME)
export const FilesPath = z.object({ org: fileName.describe('The organisation (facility key).') })
export const FilePath = z.object({ org: fileName.describe('The organisation (facility key).'), name: fileName.describe('The file name, e.g. logo.png.') })
export const SubdirQuery = z.object({ subdir: z.string().regex(SAFE_SUBDIR).optional().describe('A folder under the organisation\'s files, up to three levels.') })
export const UploadBody = z.object({
  'files[0]': z.string().describe(`The file (binary). Allowed: ${Object.keys(ALLOWED).join(', ')}; checked against its first bytes. Up to five files as files[0]…files[4].`),
})
export const UploadAnswer = z.object({ files: z.array(z.object({ name: z.string(), path: z.string().describe('The stored reference, /getfiles/{org}/{name}.'), size: z.number().int(), type: z.string() })) })
export const FileList = z.array(z.object({ name: z.string(), size: z.number().int(), type: z.string(), modified: z.string() })).describe('The files of the folder (plain files only, not recursing).')
export const DownloadTokenQuery = SubdirQuery.extend({ token: z.string().optional().describe('A download token from POST /files/{org}/token (expires) instead of the session.') })
export const FileTokenBody = z.object({ name: z.string().describe('The file name.'), subdir: z.string().optional().describe('Its folder, if any.') })
export const FileTokenAnswer = z.object({ token: z.string(), url: z.string().describe('/getfiles/{org}/{name}?[subdir=&]token=…'), expires: z.string().describe('ISO-8601 time the link stops working.') })

// ---------------------------------------------------------------- pipelines, flow records, sensors, OTA, schema calls (SPEC §7)

export const PipelineQuery = z.object({ c: z.string().describe('The table (collection) the pipeline runs over.'), op: z.literal('pipe') })
export const Pipeline = z
  .array(z.record(z.unknown()).describe('One stage: an object with one key, the stage name ($match, $sort, $skip, $limit, $project, $addFields, $group, $count, $unwind, $lookup, $facet).'))
  .describe('A MongoDB-style aggregation pipeline. $where, $function, $out, $merge, unknown stages or operators and field names that are not plain paths are refused with 400.')
export const TablePage = z
  .array(z.object({ data: z.array(AnyRecord), total: z.array(z.object({ count: z.number().int() })), pages: z.number().int() }).passthrough())
  .describe('An array of documents; for the table-page pipeline its first element is { data, total: [{count}], pages }. A caller\'s own facet named pages is never overwritten: the page count then goes under pageCount (or pageCount2, … the first name the caller did not use).')

export const ProcessingQuery = z.object({ email: z.string().describe('The account being processed.') })
export const ManageIntakeBody = z.object({ action: z.literal('metrc_global_pref_delete'), recid: z.string() })
export const LastReadingQuery = z.object({ last: z.literal('1').describe('With a device id in place of the table: its latest sensor reading.') })
export const LastReading = z.object({ data: z.record(z.unknown()).describe('Sensor code → value.') }).passthrough()
export const ReadingBody = z
  .object({
    type: z.literal('reading'),
    data: z.record(z.number()).describe('Sensor dictionary code (GET /dt/v1/dictionary) → value; within ten times the code\'s max.'),
    ts: z.union([z.string(), z.number()]).optional().describe('When it was read: an ISO time or epoch milliseconds, within the last day; default now.'),
  })
  .describe('A sensor reading, the same message a device publishes on {org}/bcast/{deviceID}.')
export const ReadingStored = z.object({ deviceID: z.string(), data: z.record(z.number()), ts: z.string().describe('ISO time of the reading.') }).describe('The reading as stored.')
export const TranslatorQuery = z.object({ return: z.enum(['key', 'keys']), key: z.string().optional().describe('With return=keys: the schema key.') })
export const BulkUploadQuery = z.object({ org: z.string().describe('auth'), id: z.literal('new') })
export const BulkUploadBody = z.object({ keys: z.array(z.record(z.unknown())) }).passthrough()
export const DeviceKeyBody = z.object({ deviceID: z.string().min(1).max(80).describe('A device of the token\'s facility: a sen_devices deviceID or a set_printers deviceid.') }).strict()
export const DeviceKeyAnswer = z.object({
  username: z.string().describe('{org}/{deviceID}: the MQTT username, and the user of HTTP Basic auth for GET /labels and POST /dt/v1/{deviceID}.'),
  password: z.string().describe('The device key (shown once; only its hash is kept). Earlier keys of this device stop working.'),
})

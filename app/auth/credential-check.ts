/**
 * What the sign-in flow's tracking-credential check (SPEC §4, §5) answers. The flow (flow.server.ts)
 * asks; app/metrc/credentials.server.ts answers it against METRC. Types only.
 */

/** A facility as METRC's GET /facilities/v2 lists it (the fields the check reads). */
export interface MetrcFacility {
  Name?: string
  DisplayName?: string
  License?: { Number?: string; LicenseType?: string; StartDate?: string; EndDate?: string }
}

export type CredentialCheck =
  | { ok: true; facility: MetrcFacility }
  | { ok: false; wrong: 'license' | 'key'; message: string }
  | { ok: false; wrong: 'unreachable'; message: string }

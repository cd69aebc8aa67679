/**
 * Lab tests (→ MetrcLabStates, MetrcLabTypes, MetrcLabTests). Results are asked for one package at
 * a time (`packageId` is required, reference §2.15) and come back in METRC's result shape: one row
 * per test type, `LabTestResultId`, `SourcePackageLabel`, `TestTypeName`.
 */
import type { FacilityData, Row } from '../model'
import { REF } from '../reference'
import { Refusal } from '../refusal'
import type { Family } from './kit'
import { labTypeWire } from '../wire'

/** a stored result (older states name some fields differently) as METRC answers it */
function resultRow(f: FacilityData, r: Row): Record<string, unknown> {
  const p = f.packages.find((x) => x.Id === r.PackageId)
  return {
    PackageId: r.PackageId,
    LabTestResultId: r.LabTestResultId ?? r.Id,
    LabFacilityLicenseNumber: r.LabFacilityLicenseNumber ?? 'LAB-0001',
    LabFacilityName: r.LabFacilityName ?? 'Demo Testing Lab',
    SourcePackageLabel: r.SourcePackageLabel ?? r.PackageLabel ?? p?.Label,
    ProductName: r.ProductName ?? p?.ItemName,
    ProductCategoryName: r.ProductCategoryName ?? p?.ItemCategoryName,
    TestPerformedDate: r.TestPerformedDate,
    OverallPassed: r.OverallPassed,
    ResultReleased: r.ResultReleased ?? true,
    TestTypeName: r.TestTypeName ?? r.LabTestTypeName,
    TestPassed: r.TestPassed,
    TestResultLevel: r.TestResultLevel,
    TestComment: r.TestComment ?? '',
    TestInformationalOnly: r.TestInformationalOnly ?? false,
    LastModified: r.LastModified,
  }
}

export const labTests: Family = {
  lists: {
    '/labtests/v2/states': { license: 'none', shape: 'bare', rows: () => REF.labStates },
    '/labtests/v2/types': { license: 'none', shape: 'paged', wire: labTypeWire, rows: () => REF.labTypes },
    '/labtests/v2/results': {
      license: 'required',
      shape: 'paged',
      rows: (_s, f, q) => {
        const id = q.get('packageId')
        if (!id || !/^\d+$/.test(id)) throw new Refusal(400, 'packageId is required.')
        return f!.labResults.filter((r) => String(r.PackageId) === id).map((r) => resultRow(f!, r))
      },
    },
  },
}

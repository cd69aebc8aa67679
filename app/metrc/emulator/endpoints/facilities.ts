/** Facilities (→ MetrcFacilities, MetrcLicense) and employees (→ MetrcEmployees). */
import type { License } from '../model'
import type { Family } from './kit'
import { employeeWire } from '../wire'

const facilityRow = (l: License) => ({
  HireDate: '0001-01-01',
  IsOwner: false,
  IsManager: true,
  IsFinancialContact: false,
  Occupations: [],
  Name: l.Name,
  Alias: l.Name,
  DisplayName: l.Name,
  CredentialedDate: '2024-01-01',
  License: { Number: l.Number, StartDate: '2024-01-01', EndDate: '2027-12-31', LicenseType: l.LicenseType },
  FacilityType: { IsMedical: true, IsRetail: !l.CanGrowPlants, IsHemp: false, CanGrowPlants: l.CanGrowPlants, CanTagPlantBatches: l.CanGrowPlants, CanTrackVegetativePlants: l.CanGrowPlants, CanCreateOpeningBalancePackages: true, CanSellToPatients: !l.CanGrowPlants },
})

export const facilities: Family = {
  lists: {
    // the key's own facilities, no licenseNumber, a bare array
    '/facilities/v2': { license: 'none', shape: 'bare', rows: (s, _f, _q, u) => s.licenses.filter((l) => u.licenses.includes(l.Number)).map(facilityRow) },
    // METRC's employees have no Id
    '/employees/v2': { license: 'required', shape: 'paged', wire: employeeWire, rows: (_s, f) => f!.employees },
  },
}

/**
 * /CrmProspect: the prospects as the generic table (add, edit, filter, sort, export as every table
 * screen), with a link to their pipeline board at /CrmSalesPipeline (app/areas/crm, decision 057).
 */
import { Link } from '@remix-run/react'
import ScreenRoute, { action, loader, meta } from './$'
import { BOARD } from '../areas/crm/rules'

export { action, loader, meta }

export default function ProspectsTable() {
  return (
    <>
      <div className="px-4 pt-4">
        <Link to={BOARD} className="inline-flex min-h-[44px] items-center rounded-md border border-canopy-600 px-3 text-sm text-canopy-200 hover:bg-slate-800" data-testid="board-link">
          Pipeline board →
        </Link>
      </div>
      <ScreenRoute />
    </>
  )
}

/** What the edit form shows for a record's label: the addresses of its preview, PDF and ZPL, when a printer can print it. */
import type { AppLoadContext } from '@remix-run/node'
import type { TableSchema } from '../schemas/table-schema'
import { labelChoiceFor, labelPath, orgPrinters } from './printers.server'

export interface LabelLinks {
  template: string
  /** the printer's name, or null: no printer names this table's fields (the default template) */
  printer: string | null
  svg: string
  pdf: string
  zpl: string
}

export async function labelLinks(context: AppLoadContext, org: string, schema: TableSchema, id: string): Promise<LabelLinks | null> {
  const choice = labelChoiceFor(await orgPrinters(context, org), schema)
  if (!choice) return null
  const target = { table: schema.key, id }
  return {
    template: choice.template,
    printer: choice.printer?.name ?? null,
    svg: labelPath(target, choice.template, 'svg'),
    pdf: labelPath(target, choice.template, 'pdf'),
    zpl: labelPath(target, choice.template, 'zpl'),
  }
}

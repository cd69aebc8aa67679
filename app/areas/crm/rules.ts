/** CRM pipeline rules shared by the board's browser half and its server (issue 27). */
import { L } from '../../seed/schemas/business'

/** The prospect stages (crm_prospects.stage's pick list), in pipeline order: the board's columns. */
export const STAGES: readonly string[] = L.stage

export const BOARD = '/CrmSalesPipeline'
export const PROSPECTS = '/CrmProspect'
export const TODOS = '/CrmToDo'
/** the calendar's category (and styling) for a CRM to-do */
export const FOLLOW_UP = 'CRM follow-up'

export const isStage = (s: string): boolean => STAGES.includes(s)

/** Whole dollars as $12,500 (the board's card and column totals). */
export const dollars = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`

/** /CrmSalesPipeline: the prospects' pipeline board (app/areas/crm; a thin route, decision 022 and 057). */
import type { MetaFunction } from '@remix-run/node'
import { BoardPage } from '../areas/crm/board-page'
import { boardAction, boardLoader } from '../areas/crm/board.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Sales Pipeline · ${APP_NAME}` }]
export const loader = boardLoader
export const action = boardAction
export default BoardPage

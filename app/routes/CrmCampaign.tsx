/** /CrmCampaign: every campaign's progress, `?c={id}` one campaign's recipients (app/areas/campaigns; a thin route). */
import type { MetaFunction } from '@remix-run/node'
import { CampaignListPage } from '../areas/campaigns/campaign-page'
import { listLoader } from '../areas/campaigns/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Campaigns · ${APP_NAME}` }]
export const loader = listLoader
export default CampaignListPage

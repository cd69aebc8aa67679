/** /CrmCampaignCreate: pick a template and a list, count, preview, start (app/areas/campaigns; a thin route). */
import type { MetaFunction } from '@remix-run/node'
import { CampaignCreatePage } from '../areas/campaigns/create-page'
import { createAction, createLoader } from '../areas/campaigns/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Create campaign · ${APP_NAME}` }]
export const loader = createLoader
export const action = createAction
export default CampaignCreatePage

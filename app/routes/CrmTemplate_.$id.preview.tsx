/** /CrmTemplate/{id}/preview: a mail template filled for a sample recipient (app/areas/campaigns; a thin route). */
import type { MetaFunction } from '@remix-run/node'
import { TemplatePreviewPage } from '../areas/campaigns/template-preview'
import { previewLoader } from '../areas/campaigns/routes.server'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Template preview · ${APP_NAME}` }]
export const loader = previewLoader
export default TemplatePreviewPage

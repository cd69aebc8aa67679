/** /HTMLEditor/new: a new one in the editor (its own file: a static 'new' must win over $screen.new.tsx; app/areas/documents). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { DocEditorPage } from '../areas/documents/doc-editor'
import { editorAction, editorLoader } from '../areas/documents/editor.server'
import { DOC_KINDS } from '../areas/documents/kinds'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `New · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => editorLoader(DOC_KINDS.page)({ ...args, params: { id: 'new' } })
export const action = (args: ActionFunctionArgs) => editorAction(DOC_KINDS.page)({ ...args, params: { id: 'new' } })
export default DocEditorPage

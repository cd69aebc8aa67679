/** /DocHTMLEditor/{id} and /DocHTMLEditor/new: the editor (Markdown without JavaScript, rich text with it) (app/areas/documents; a thin route, decision 022). */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { DocEditorPage } from '../areas/documents/doc-editor'
import { editorAction, editorLoader } from '../areas/documents/editor.server'
import { DOC_KINDS } from '../areas/documents/kinds'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Edit document · ${APP_NAME}` }]
export const loader = (args: LoaderFunctionArgs) => editorLoader(DOC_KINDS.doc)(args)
export const action = (args: ActionFunctionArgs) => editorAction(DOC_KINDS.doc)(args)
export default DocEditorPage

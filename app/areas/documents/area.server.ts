/**
 * The documents area's server half (decision 022): plugs the sanitiser, the versions and the
 * policies' check into the one write path, and the demo's files into the seed.
 */
import type { ServerArea } from '../area'
import { registerFieldCleaner, registerWriteStep } from '../../records/write-hooks.server'
import { registerAfterSeed } from '../../seed/index.server'
import { writeDemoFiles } from './demo-files.server'
import { DOC_KINDS, kindOfCollection } from './kinds'
import { publishedVersionExists } from './policies.server'
import { sanitizeDocumentHtml } from './sanitize.server'
import { versionStep } from './versions.server'

/** Fields that hold HTML: every `document` field, and the HTML of the platform's pages (sup_html, typed `code`). */
export const holdsHtml = (collection: string, f: { key: string; type: string }) => f.type === 'document' || kindOfCollection(collection)?.bodyKey === f.key

export const serverArea: ServerArea = {
  name: 'documents',
  install() {
    registerFieldCleaner('documents:html', holdsHtml, (v) => (typeof v === 'string' ? sanitizeDocumentHtml(v) : v))
    for (const k of Object.values(DOC_KINDS)) registerWriteStep(k.collection, 'documents:version', versionStep(k.bodyKey))
    registerWriteStep(DOC_KINDS.policy.collection, 'documents:published', publishedVersionExists)
    registerAfterSeed('documents:demo-files', (database, env, logger) => writeDemoFiles(database, env, logger))
  },
}

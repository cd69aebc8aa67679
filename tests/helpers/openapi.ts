/**
 * Checks on an OpenAPI document shared by the unit and integration tests: the OpenAPI 3.1 validator
 * (@seriousme/openapi-schema-validator), and Ajv 2020 (the validator's own Ajv, resolved from its
 * package) for what the validator does not check: that every schema in it is valid JSON Schema
 * 2020-12, and that a real answer matches the schema the document gives it.
 */
import { createRequire } from 'node:module'
import { Validator } from '@seriousme/openapi-schema-validator'

// the validator's dependency, not ours: resolve it from the validator's own location
const requireFromValidator = createRequire(createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'))
const Ajv2020 = requireFromValidator('ajv/dist/2020').default as any

export async function validateOpenApi(doc: unknown): Promise<{ valid: boolean; version: string; errors?: unknown }> {
  const v = new Validator()
  const r = await v.validate(doc as Record<string, unknown>)
  return { ...r, version: v.version }
}

type Json = Record<string, unknown>

/** Every JSON Schema the document holds (components, parameters, bodies, answers, headers), with where it is. */
export function schemasIn(doc: Json): Array<{ at: string; schema: Json }> {
  const out: Array<{ at: string; schema: Json }> = []
  const walk = (x: unknown, at: string) => {
    if (!x || typeof x !== 'object') return
    if (Array.isArray(x)) return x.forEach((y, i) => walk(y, `${at}/${i}`))
    for (const [k, v] of Object.entries(x)) {
      if (k === 'schema' && v && typeof v === 'object') out.push({ at: `${at}/schema`, schema: v as Json })
      else walk(v, `${at}/${k}`)
    }
  }
  walk(doc.paths, '#/paths')
  walk((doc.components as Json).responses, '#/components/responses')
  for (const [name, s] of Object.entries((doc.components as Json).schemas as Json)) out.push({ at: `#/components/schemas/${name}`, schema: s as Json })
  return out
}

/** An Ajv 2020 instance that knows the document's components (so `#/components/...` refs resolve through `doc#`). */
export function ajvFor(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc')
  return {
    ajv,
    /** Is `schema` valid JSON Schema 2020-12? the errors if not */
    metaErrors: (schema: Json) => (ajv.validateSchema(schema) ? null : ajv.errors),
    /** Validates a value against a schema of the document, its local refs pointed at the document. */
    check(schema: Json, value: unknown): { ok: boolean; errors: unknown } {
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'))
      const fn = ajv.compile(rebased)
      return { ok: fn(value) as boolean, errors: fn.errors }
    },
  }
}

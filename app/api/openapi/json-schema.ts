/**
 * zod → JSON Schema for the OpenAPI 3.1 document (whose schema dialect is JSON Schema 2020-12).
 * zod-to-json-schema writes draft 2019-09 here, which 2020-12 reads the same for everything our
 * schemas use (no tuples, no $defs: every schema is written out in place). What a request may
 * send is described (`effectStrategy: 'input'`: a preprocess or transform shows its input side);
 * keys a zod object drops are allowed, as the server ignores them.
 */
import type { z } from 'zod'
import { zodToJsonSchema } from 'zod-to-json-schema'

export type JsonSchema = { [key: string]: unknown }

export function toJsonSchema(schema: z.ZodTypeAny): JsonSchema {
  const out = zodToJsonSchema(schema, {
    target: 'jsonSchema2019-09',
    $refStrategy: 'none',
    effectStrategy: 'input',
    removeAdditionalStrategy: 'strict',
  }) as JsonSchema
  delete out.$schema
  return out
}

/** Is this a zod schema (rather than a JSON Schema written by hand, e.g. a `$ref`)? */
export function isZod(x: unknown): x is z.ZodTypeAny {
  return !!x && typeof x === 'object' && typeof (x as { safeParse?: unknown }).safeParse === 'function' && '_def' in x
}

/** A zod schema or a JSON Schema, as JSON Schema. */
export const asJsonSchema = (x: z.ZodTypeAny | JsonSchema): JsonSchema => (isZod(x) ? toJsonSchema(x) : x)

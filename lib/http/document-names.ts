// The name each request and response schema takes in the OpenAPI document
// (#/components/schemas/<name>), given where the schema is defined:
// `documentNames.add(AlertV4, { id: 'AlertV4' })`, at the end of the area's schemas.ts. A schema the document shows
// must have one (lib/openapi/document.ts says which when it has none); two schemas cannot share one.
//
// A registry of its own, not zod's: every area's schemas.ts adds to it as it loads, so a function's
// start would load zod/mini's builders for it alone (issue 21). It keeps zod's registry's rules: a
// schema derived from a named one (`.optional()`, a clone) has its parent's keywords but not its id.
import type * as z from 'zod/v4/core';

export interface DocumentName {
  id: string;
  /** JSON Schema keywords the zod schema cannot express, added to its component as they are. */
  jsonSchema?: Record<string, unknown>;
}

class DocumentNames {
  readonly #names = new WeakMap<object, DocumentName>();

  /** Names `schema` (a lazy stand-in is not built by it: the schema is only a key here). */
  add(schema: z.$ZodType, name: DocumentName): this {
    this.#names.set(schema, name);
    return this;
  }

  get(schema: z.$ZodType): DocumentName | undefined {
    const parent = schema._zod.parent;
    if (!parent) return this.#names.get(schema);
    const { id: _parentId, ...inherited } = this.get(parent) ?? ({} as Partial<DocumentName>);
    const merged = { ...inherited, ...this.#names.get(schema) };
    return Object.keys(merged).length ? (merged as DocumentName) : undefined;
  }
}

export const documentNames = new DocumentNames();

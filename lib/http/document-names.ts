// The name each request and response schema takes in the OpenAPI document
// (#/components/schemas/<name>), given where the schema is defined:
// `documentNames.add(AlertV4, { id: 'AlertV4' })`, at the end of the area's schemas.ts. A schema the document shows
// must have one (lib/openapi/document.ts says which when it has none); two schemas cannot share one.
import { registry } from 'zod/mini';

export interface DocumentName {
  id: string;
  /** JSON Schema keywords the zod schema cannot express, added to its component as they are. */
  jsonSchema?: Record<string, unknown>;
}

export const documentNames = registry<DocumentName>();

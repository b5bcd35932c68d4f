// Validates bodies against the OpenAPI document's schemas with a JSON Schema 2020-12 validator
// (the dialect of OpenAPI 3.1). Components are addressed as #/components/schemas/<name>; each checked
// schema is compiled with every component beside it, so $refs resolve as in the document.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

/** SCIM's JSON (RFC 7644 §3.1), what the /scim/v2 operations declare their bodies as. */
const SCIM_JSON = 'application/scim+json';

export class DocumentChecker {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    addFormats(this.ajv);
    // The components live under a keyword JSON Schema does not know; declaring it keeps strict mode on.
    this.ajv.addVocabulary(['components']);
    this.ajv.addSchema({ $id: 'https://oncall.invalid/openapi', components: document.components }, undefined, undefined, false);
  }

  private compile(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({ $id: `https://oncall.invalid/check/${this.compiled.size}`, ...rebase(schema) });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Compiles a component schema (strict mode: unknown keywords and bad schemas throw). */
  compileComponent(name: string): ValidateFunction {
    return this.compile(`component:${name}`, { $ref: `#/components/schemas/${name}` });
  }

  /**
   * Checks a real response against the document: its status must be declared for the operation,
   * and its body must match the declared schema (or be empty when none is declared). Returns the
   * problems found, empty when the response conforms.
   */
  check(method: string, pathTemplate: string, status: number, body: unknown, text: string): string[] {
    const operation = this.document.paths?.[pathTemplate]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${pathTemplate} is not in the document`];
    let response = operation.responses?.[String(status)];
    if (!response) return [`${method} ${pathTemplate} does not declare status ${status} (body ${text.slice(0, 200)})`];
    if (response.$ref) response = this.resolve(response.$ref);
    const schema = response.content?.['application/json']?.schema ?? response.content?.[SCIM_JSON]?.schema;
    // A body declared as text of another media type (an iCalendar feed) is text: any string fits.
    const textual = Object.keys(response.content ?? {}).some((type) => type !== 'application/json' && type !== SCIM_JSON);
    if (!schema && textual)
      return typeof body === 'string' && text !== '' ? [] : [`${method} ${pathTemplate} ${status} declares text but got none`];
    if (!schema) return text === '' ? [] : [`${method} ${pathTemplate} ${status} declares no body but got ${text.slice(0, 200)}`];
    const validate = this.compile(`${method} ${pathTemplate} ${status}`, schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${method} ${pathTemplate} ${status}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }

  /**
   * Checks a JSON request body that the service accepted against the operation's documented
   * request schema: a body the service takes must never be one the document refuses.
   */
  checkRequest(method: string, pathTemplate: string, body: unknown): string[] {
    const operation = this.document.paths?.[pathTemplate]?.[method.toLowerCase()];
    const schema = operation?.requestBody?.content?.['application/json']?.schema;
    if (!schema) return [`${method} ${pathTemplate} documents no JSON request body`];
    const validate = this.compile(`${method} ${pathTemplate} request`, schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${method} ${pathTemplate} request: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }

  private resolve(ref: string): Json {
    let node: any = this.document;
    for (const part of ref.replace(/^#\//, '').split('/')) node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node;
  }
}

/** Points the document's local refs at the registered components schema. */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"https://oncall.invalid/openapi#/components/'));
}

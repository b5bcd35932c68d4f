// Builds the OpenAPI 3.1 document of both interfaces from the route table (given by the caller:
// lib/api/route-table.ts ROUTES), each route's declaration carrying its words and schemas: request
// bodies are the areas' input schemas, responses their representations (lib/<area>/schemas.ts),
// converted by zod's toJSONSchema (draft 2020-12, the dialect OpenAPI 3.1 uses) under the names
// lib/http/document-names.ts gives them. Served at GET /api/v4/openapi.json; built once per process
// and kept. docs/api.md is the prose that goes with it.
import * as z from 'zod';
import { documentNames } from '../http/document-names';
import { idList } from '../http/fields';
import { interfaceOf } from '../http/request';
import { ErrorEarlier, ErrorV4, instant, listOf } from '../http/response-fields';
import type { ErrorStatus, RouteDeclaration } from '../http/route-contract';

/** A route of the table: its declaration, the function that serves it and its operation there. */
export type DocumentedRoute = RouteDeclaration & { fn: string; op: string };

type Json = Record<string, unknown>;

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// ---- error responses --------------------------------------------------------------------------

const ERROR_TEXT: Record<Exclude<ErrorStatus, 'invalid' | 422>, string> = {
  400: 'Malformed JSON in the body',
  401: 'No credentials, or a token that is invalid, expired or revoked',
  403: "The caller's role does not allow this",
  404: "No such object in the caller's account (another account's objects are absent too)",
  405: 'The integration is disabled, or it is an outgoing webhook (it receives nothing)',
  409: 'The current status does not allow this (the message names it), a concurrent change won, or a duplicate',
  413: 'The body is larger than 256 KiB',
  429: 'Rate limited; retry after the Retry-After seconds',
  502: 'Slack did not answer, or refused what the service asked of it (the message says what it answered)',
};
const INVALID_TEXT = 'A field is invalid or references an object that does not exist in the account; each message names its field';

const ERROR_NAMES: Record<Exclude<ErrorStatus, 'invalid'> | 422, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  422: 'Unprocessable',
  429: 'TooManyRequests',
  502: 'BadGateway',
};

/** Any of the three ways of sending credentials (docs/api.md#authentication). */
const DEFAULT_SECURITY: Json[] = [{ bearerAuth: [] }, { bareToken: [] }, { apiKeyId: [], apiKeySecret: [] }];

const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };
/** The request limits' fields (docs/api.md#request-limits), on the 429s of the routes they limit. */
const RATE_LIMIT_FIELDS = {
  'RateLimit-Limit': { description: 'The burst of the bucket closest to refusing (credential or account)', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Tokens left in that bucket: 0 on a 429', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': {
    description: 'Seconds until that bucket is full again; on a 429, the same moment as Retry-After',
    schema: { type: 'integer' },
  },
};

function errorResponses(): Json {
  const responses: Json = {};
  for (const iface of ['V4', 'Earlier'] as const) {
    const body = { content: { 'application/json': { schema: schemaRef(`Error${iface}`) } } };
    for (const [status, text] of Object.entries(ERROR_TEXT)) {
      const description =
        status === '400' && iface === 'Earlier' ? `${text}, or ${INVALID_TEXT[0].toLowerCase()}${INVALID_TEXT.slice(1)}` : text;
      const headers = status === '429' ? { headers: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_FIELDS } } : {};
      responses[`${ERROR_NAMES[Number(status) as 400]}${iface}`] = { description, ...headers, ...body };
    }
    if (iface === 'V4') responses.UnprocessableV4 = { description: INVALID_TEXT, ...body };
    else responses.UnprocessableEarlier = { description: `${INVALID_TEXT} (the password routes answer 422 outside /api/v4 too)`, ...body };
  }
  return responses;
}

/** The error responses of one route, keyed by status. Validation is 422 under /api/v4, 400 elsewhere. */
function errorsOf(path: string, errors: readonly ErrorStatus[]): Json {
  const v4 = interfaceOf(path) === 'v4';
  const suffix = v4 ? 'V4' : 'Earlier';
  const out: Json = {};
  for (const error of errors) {
    const status = error === 'invalid' ? (v4 ? 422 : 400) : error;
    out[String(status)] = { $ref: `#/components/responses/${ERROR_NAMES[status]}${suffix}` };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

// ---- parameters -------------------------------------------------------------------------------

const LIST_PARAMETERS: Json = {
  limit: {
    name: 'limit',
    in: 'query',
    description: 'Objects per page, 1 to 100',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  },
  offset: { name: 'offset', in: 'query', description: 'Objects to skip', schema: { type: 'integer', minimum: 0, default: 0 } },
  page: {
    name: 'page',
    in: 'query',
    description: '1-based page number; offset = (page - 1) × limit',
    schema: { type: 'integer', minimum: 1 },
  },
  ops: {
    name: 'ops',
    in: 'query',
    description:
      'Comma-separated attr:op tokens choosing how a filter compares: equals, ne, lt, lte, gt, gte, beginsWith, contains, between (value a..b, both bounds inclusive). Default: equals, and contains for arrays.',
    schema: { type: 'string' },
    example: 'created_at:between',
  },
  sortV4: {
    name: 'sort',
    in: 'query',
    description: 'Attribute to sort by (with direction); without it, newest first',
    schema: { type: 'string' },
  },
  sortEarlier: {
    name: 'sort',
    in: 'query',
    description: 'Attribute to sort by, descending when prefixed with a minus sign; without it, newest first',
    schema: { type: 'string' },
    example: '-created',
  },
  direction: {
    name: 'direction',
    in: 'query',
    description: 'Sort direction (default asc when sort is given)',
    schema: { type: 'string', enum: ['asc', 'desc'] },
  },
  q: {
    name: 'q',
    in: 'query',
    description: 'Case-insensitive free-text search (title, name, description or the like)',
    schema: { type: 'string' },
  },
  select: {
    name: 'select',
    in: 'query',
    description: 'Comma-separated attributes to return (plus id)',
    schema: { type: 'string' },
    example: 'title,status',
  },
};

/** "Any attribute is a filter": the item's attributes as a free-form query object. */
function filterParameter(item: z.ZodType): Json {
  const shape = item instanceof z.ZodObject ? Object.keys(item.shape) : [];
  return {
    name: 'filters',
    in: 'query',
    description:
      "Any attribute of the object filters the list (nested ones by dotted path, e.g. meta.incident); values are read as the attribute's type (true/false or 1/0, numbers, ISO datetimes); a repeated key matches any of its values. A key that is neither a list parameter nor an attribute is refused, so typos surface.",
    style: 'form',
    explode: true,
    schema: {
      type: 'object',
      properties: Object.fromEntries(shape.map((name) => [name, { type: 'string' }])),
      additionalProperties: { type: 'string' },
    },
  };
}

/** Alert paths of both interfaces (and their views), whose :id also takes the alert's tiny id. */
const ALERT_PATH = /^\/(api\/v4\/alerts|alert|incident|broadcast)\/\{id\}/;

function pathParameters(path: string): Json[] {
  const idText = ALERT_PATH.test(path)
    ? "The ULID, the prefix id or the alert's tiny id (the number people see, e.g. 42); any other value, or another kind's prefix id, is a 404"
    : "The ULID or the prefix id; any other value, or another kind's prefix id, is a 404";
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'id' ? idText : name,
    schema: { type: 'string' },
  }));
}

// ---- the document -----------------------------------------------------------------------------

const TAGS: [string, string][] = [
  ['Platform', 'Health, sign-in, signup and this document: no credentials'],
  ['Account', "The caller's account (earlier interface)"],
  ['API keys', 'Keys that act as an account user'],
  ['SCIM tokens', "Bearer tokens of the account's identity provider, for /scim/v2"],
  ['SCIM provisioning', 'SCIM 2.0 (RFC 7644): account users as Users, teams as Groups; SCIM tokens only, SCIM error bodies'],
  ['Account users', 'People inside the account'],
  ['Alerts', 'Alerts, their transitions and comments (v4)'],
  ['Alerts (earlier)', 'Alerts on the earlier interface, with archive and handoff'],
  ['Broadcasts', 'Messages to teams and account users, optionally asking each for a response (v4)'],
  ['Broadcasts and incidents (earlier, deprecated)', 'Views of alerts'],
  ['Logs (earlier)', 'Alert timelines, notes and inbound requests'],
  ['Teams', 'Members, admins, the active schedule and escalation policy'],
  ['Schedules', 'On-call calendars and who is on call'],
  ['Events', 'Calendar events: repeats, rotations, overrides, exceptions'],
  ['Events (earlier)', 'Calendar events on the earlier interface'],
  ['Escalation policies', 'Layers, timeouts, repeats and reassignment'],
  ['Integrations', 'Integrations and the integration type catalogue'],
  ['Integrations (earlier)', 'Integrations on the earlier interface'],
  ['Maintenance windows', 'Spans during which integrations are ignored'],
  ['Inbound webhooks', 'Third-party monitoring posts here, without credentials'],
  ['Notifications', 'Every message sent to a person (read only), and one-click responses from pages'],
  ['Notifications (earlier)', 'Notifications on the earlier interface'],
  ['Slack', "The account's Slack workspace, and the clicks and /oncall commands Slack sends"],
  ['Routers', 'YAML rules that route and transform alerts, and their dry run'],
  ['Routers (earlier)', 'Routers and notification rules on the earlier interface, and the default templates'],
  ['Notification rules', 'YAML rules that decide how an account user is paged, and their dry run'],
  ['Automations (earlier)', 'HTTP requests to third-party systems, run by hand or by routers'],
];

const DESCRIPTION = [
  'An on-call alerting and incident-response service with two interfaces over one domain: everything under /api/v4 (snake_case, ULID ids with prefix_id, ISO 8601 UTC datetimes with milliseconds) and the earlier interface without a prefix (prefix ids as id, createdAt/updatedAt, Unix-second timestamps).',
  'Errors are {"errors":[{"message":"…"}]}, plus "code": <status> under /api/v4; validation is 422 under /api/v4 and 400 elsewhere. Bodies are JSON; v4 creates and updates also take application/x-www-form-urlencoded with bracket nesting (a[b]=1, a[]=1, a[][x]=1). Fields an endpoint does not read are ignored.',
  "Answers over 1 KB are compressed (br or gzip) when Accept-Encoding allows it, with Content-Encoding and Vary: Accept-Encoding; the schemas describe the decompressed bodies. An answer that would pass the 6 MB a response may carry, even compressed, is a validation error suggesting a shorter window or a smaller limit. An alert path :id also takes the alert's tiny id.",
  "The decisions behind these operations are explained in docs/api.md of the service's repository.",
].join('\n\n');

interface Components {
  schemas: Record<string, Json>;
  names: Map<z.core.$ZodType, string>;
}

/** Converts every named schema at once, so shared ones become $refs between components. */
function convertSchemas(operations: readonly RouteDeclaration[]): Components {
  const names = new Map<z.core.$ZodType, string>();
  const registry = z.registry<{ id: string }>();
  const used = new Set<z.core.$ZodType>([ErrorV4, ErrorEarlier]);
  const nameOf = (schema: z.core.$ZodType) => {
    const name = names.get(schema) ?? documentNames.get(schema)?.id;
    if (!name) throw new Error('A schema of the OpenAPI document has no name: documentNames.add(schema, { id }) where it is defined');
    return name;
  };
  for (const op of operations) {
    for (const schema of [op.body, op.bodyExtra, ...op.success.map((s) => s.schema), ...(op.ownErrors ?? []).map((e) => e.schema)]) {
      if (schema) used.add(schema);
    }
    if (op.list) used.add(op.list);
  }
  for (const schema of used) {
    names.set(schema, nameOf(schema));
    registry.add(schema, { id: nameOf(schema) });
  }
  // List envelopes, and on the earlier interface the shape `select` leaves (id plus what was asked).
  const envelopes = new Set<string>();
  for (const op of operations) {
    if (!op.list) continue;
    const item = nameOf(op.list);
    if (envelopes.has(item)) continue;
    envelopes.add(item);
    let entry: z.ZodType = op.list;
    if (item.endsWith('Earlier') && op.list instanceof z.ZodObject) {
      const selected = op.list.partial().required({ id: true } as never);
      names.set(selected, `${item}Selected`);
      registry.add(selected, { id: `${item}Selected` });
      entry = z.union([op.list, selected]);
    }
    const envelope = listOf(entry);
    names.set(envelope, `${item}List`);
    registry.add(envelope, { id: `${item}List` });
  }

  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      const json = jsonSchema as Json;
      if (zodSchema === instant) json.format = 'date-time';
      if (zodSchema === idList) {
        const list = { ...json };
        for (const key of Object.keys(json)) delete json[key];
        json.anyOf = [list, { type: 'string', minLength: 1, description: 'One id: read as a list of one' }];
      }
      Object.assign(json, documentNames.get(zodSchema)?.jsonSchema);
      // In input mode zod reads a preprocessed field (ids that may come as one string) as optional,
      // because the preprocess takes anything. Required is what the schema refuses to go without.
      if (zodSchema instanceof z.ZodObject && json.properties) {
        const shape: Record<string, z.ZodType> = zodSchema.shape;
        const required = Object.keys(shape).filter((key) => !shape[key].safeParse(undefined).success);
        if (required.length > 0) json.required = required;
        else delete json.required;
      }
      // zod bounds every integer by the safe-integer range; that says nothing to a client.
      if (json.type === 'integer') {
        if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
        if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
      }
    },
  });
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(converted.schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    schemas[name] = rest;
  }
  return { schemas, names };
}

function operationObject(route: DocumentedRoute, components: Components): Json {
  const op = route;
  const ref = (schema: z.core.$ZodType) => schemaRef(components.names.get(schema)!);
  const iface = interfaceOf(route.path);
  const parameters: Json[] = [...pathParameters(route.path)];
  if (op.list) {
    const names = ['limit', 'offset', 'page', 'ops', iface === 'v4' ? 'sortV4' : 'sortEarlier', 'direction', 'q'];
    if (iface === 'earlier') names.push('select');
    parameters.push(...names.map((name) => ({ $ref: `#/components/parameters/${name}` })), filterParameter(op.list));
  }
  for (const query of op.query ?? []) {
    parameters.push({
      name: query.name,
      in: 'query',
      required: query.required,
      description: query.description,
      schema: { type: 'string' },
      ...(query.example ? { example: query.example } : {}),
    });
  }

  const responses: Json = {};
  for (const success of op.success) {
    const schema = op.list ? schemaRef(`${components.names.get(op.list)}List`) : success.schema ? ref(success.schema) : undefined;
    responses[String(success.status)] = {
      description: success.description,
      ...(success.text ? { content: { [success.text]: { schema: { type: 'string' } } } } : {}),
      ...(schema
        ? { content: { 'application/json': { schema }, ...(success.html ? { 'text/html': { schema: { type: 'string' } } } : {}) } }
        : {}),
    };
  }
  // Every request with credentials, and those of the `public` function, pass the request limits
  // (docs/api.md#request-limits): a 429 whatever the route declares.
  const limited = !route.public || route.fn === 'public';
  Object.assign(responses, errorsOf(route.path, limited ? [...op.errors, 429] : op.errors));
  for (const own of op.ownErrors ?? []) {
    responses[String(own.status)] = {
      description: own.description,
      ...(own.status === 429 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: { 'application/json': { schema: ref(own.schema) } },
    };
  }
  const sortedResponses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));

  const operation: Json = {
    operationId: `${route.fn}${route.op[0].toUpperCase()}${route.op.slice(1)}`,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(route.public ? { security: [] } : {}),
    // `{}` among the alternatives: the operation may also be called without credentials.
    ...(route.credentials === 'optional' ? { security: [{}, ...DEFAULT_SECURITY] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (op.body) {
    const schema = op.bodyExtra ? { allOf: [ref(op.body), ref(op.bodyExtra)] } : ref(op.body);
    const required = ((components.schemas[components.names.get(op.body)!].required as string[] | undefined) ?? []).length > 0;
    operation.requestBody = {
      required,
      ...(op.form ? { description: 'JSON, or application/x-www-form-urlencoded with bracket nesting (a[b]=1, a[]=1, a[][x]=1)' } : {}),
      content: op.formOnly
        ? { 'application/x-www-form-urlencoded': { schema } }
        : {
            'application/json': { schema },
            ...(op.form ? { 'application/x-www-form-urlencoded': { schema } } : {}),
          },
    };
  } else if (op.anyBody) {
    operation.requestBody = {
      required: false,
      description: 'Any body up to 256 KiB, stored as it came',
      content: {
        'application/json': { schema: {} },
        'application/x-www-form-urlencoded': { schema: {} },
        'text/plain': { schema: { type: 'string' } },
      },
    };
  }
  operation.responses = sortedResponses;
  return route.credentials === 'scim' ? asScim(operation) : operation;
}

/** A /scim/v2 operation: a SCIM token its only credential, and every body in SCIM's media type (RFC 7644 §3.1). */
function asScim(operation: Json): Json {
  const retyped = JSON.parse(JSON.stringify(operation).replaceAll('"application/json":', '"application/scim+json":')) as Json;
  const request = retyped.requestBody as { content?: Json } | undefined;
  if (request?.content?.['application/scim+json']) request.content['application/json'] = request.content['application/scim+json'];
  return { ...retyped, security: [{ scimToken: [] }] };
}

/** The OpenAPI 3.1 document of `routes`. */
export function buildOpenApiDocument(routes: readonly DocumentedRoute[]) {
  const components = convertSchemas(routes);

  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operationObject(route, components);
  }
  const usedTags = new Set(routes.map((route) => route.tag));
  return {
    openapi: '3.1.0',
    info: { title: 'On-call service API', version: '4', description: DESCRIPTION },
    tags: TAGS.filter(([name]) => usedTags.has(name)).map(([name, description]) => ({ name, description })),
    security: DEFAULT_SECURITY,
    paths,
    components: {
      schemas: components.schemas,
      responses: errorResponses(),
      parameters: LIST_PARAMETERS,
      securitySchemes: {
        scimToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'SCIM token',
          description: 'Authorization: Bearer <token>, a token made with POST /api/v4/scim_tokens; accepted under /scim/v2 only',
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT or API key token',
          description: 'Authorization: Bearer <token>, where the token is a login JWT (POST /public/login) or an API key token',
        },
        bareToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The same token without the Bearer prefix: Authorization: <token>',
        },
        apiKeyId: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: "The API key's prefix id (tkn_…) or ULID, with x-api-secret",
        },
        apiKeySecret: { type: 'apiKey', in: 'header', name: 'x-api-secret', description: "The API key's token, with x-api-key" },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let built: { routes: readonly DocumentedRoute[]; document: OpenApiDocument } | undefined;

/** The document of `routes`, built on first use and kept for the life of the process. */
export function openApiDocument(routes: readonly DocumentedRoute[]): OpenApiDocument {
  if (built?.routes !== routes) built = { routes, document: buildOpenApiDocument(routes) };
  return built.document;
}

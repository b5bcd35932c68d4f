// Arbitraries of hostile request bodies for the fuzz test (fuzz-bodies.test.ts). A body is built as a
// tree whose leaves are raw JSON tokens, so it can carry what JSON.stringify cannot write (1e400,
// duplicate keys, __proto__ as an own key); the tree is then written as JSON or as a bracket-nested
// form body, sometimes with raw bytes that are not UTF-8. Bodies follow the route's documented
// request schema (OpenAPI) often enough to pass the outer checks and reach the inner ones: a valid
// team whose meta holds -1e400 tests more than a body that is wrong from its first byte.
import fc from 'fast-check';

export type Node =
  { t: 'raw'; text: string } | { t: 'str'; v: string } | { t: 'obj'; entries: [string, Node][] } | { t: 'arr'; items: Node[] };

const raw = (text: string): Node => ({ t: 'raw', text });
const str = (v: string): Node => ({ t: 'str', v });
const obj = (entries: [string, Node][]): Node => ({ t: 'obj', entries });
const arr = (items: Node[]): Node => ({ t: 'arr', items });

/** A string leaf that becomes bytes that are not UTF-8 when the body is written. */
export const INVALID_UTF8_MARK = '\u0001not-utf8\u0001';
const INVALID_UTF8_BYTES = Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80]);

function nest(depth: number, leaf: Node, kind: 'obj' | 'arr'): Node {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = kind === 'obj' ? obj([['a', node]]) : arr([node]);
  return node;
}

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'];
const polluting: Node[] = [
  obj([['__proto__', obj([['polluted', str('yes')]])]]),
  obj([['constructor', obj([['prototype', obj([['polluted', str('yes')]])]])]]),
  obj([['prototype', obj([['polluted', str('yes')]])]]),
];

/** Leaves no schema expects: numbers JSON cannot carry, numbers as text, odd text. */
const hostileLeaf: fc.Arbitrary<Node> = fc.oneof(
  fc.constantFrom(
    raw('1e400'),
    raw('-1e400'),
    raw('1e308'),
    raw('-0'),
    raw('123456789012345678901234567890'),
    raw('4294967294'),
    raw('-1'),
    raw('0.5'),
    raw('1e-400'),
    raw('null'),
    raw('true'),
    raw('false'),
    str('NaN'),
    str('Infinity'),
    str('-Infinity'),
    str('1e400'),
    str(''),
    str('   '),
    str('\u0000'),
    str('\ud800'),
    str('💥🔥'),
    str('<script>alert(1)</script>'),
    str('{{constructor.constructor}}'),
    str('../../../etc/passwd'),
    str('2026-02-30T25:61:00Z'),
    str('0000-00-00 00:00:00'),
    str('acc_00000000000000000000000000'),
    str('__proto__'),
    str('constructor'),
    str('toString'),
    str('hasOwnProperty'),
    str(INVALID_UTF8_MARK),
  ),
  fc.nat({ max: 12_000 }).map((n) => str('x'.repeat(n))),
  fc.integer({ min: 100_000, max: 270_000 }).map((n) => str('y'.repeat(n))),
  fc.string({ maxLength: 20, unit: 'binary' }).map(str),
);

/** Values of every shape: the leaves above, wrong containers, pollution, deep and wide values. */
export const hostileValue: fc.Arbitrary<Node> = fc.oneof(
  { weight: 6, arbitrary: hostileLeaf },
  { weight: 2, arbitrary: fc.constantFrom(...polluting) },
  { weight: 1, arbitrary: fc.constantFrom(obj([]), arr([])) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 11, max: 260 }).chain((d) => fc.constantFrom(nest(d, raw('1'), 'obj'), nest(d, raw('1'), 'arr'))),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 90, max: 160 }).map((n) => obj(Array.from({ length: n }, (_, i) => [`k${i}`, raw(String(i))]))),
  },
  { weight: 1, arbitrary: fc.constantFrom(1_001, 1_500).map((n) => arr(Array.from({ length: n }, () => raw('0')))) },
  { weight: 1, arbitrary: fc.array(hostileLeaf, { maxLength: 4 }).map(arr) },
  // A hostile leaf one or two levels down, where a sender's details or a free-form object keep it.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'details', 'constructor', 'value'), hostileLeaf, fc.boolean())
      .map(([key, leaf, deeper]) => obj([[key, deeper ? obj([['b', leaf]]) : leaf]])),
  },
);

/** What a sender posts: a few of the fields senders use, each holding anything at all. */
const senderPayload: fc.Arbitrary<Node> = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'title',
        'description',
        'message',
        'summary',
        'status',
        'severity',
        'urgency',
        'details',
        'meta',
        'labels',
        'tags',
        'id',
        'n',
      ),
      hostileValue,
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map(obj);

type Schema = Record<string, any>;

export interface SchemaContext {
  /** The OpenAPI document's components, for $ref. */
  components: Record<string, Schema>;
  /** Ids of objects that exist (ULIDs and prefix ids): references that resolve. */
  ids: string[];
  /** What a `routing_key` names (the PagerDuty drop-in's integration). */
  routingKeys: string[];
}

function resolve(schema: Schema, context: SchemaContext): Schema {
  let current = schema;
  for (let i = 0; current?.$ref && i < 10; i++) current = context.components[String(current.$ref).split('/').pop()!] ?? {};
  return current ?? {};
}

const referenceName = (name: string) => /(^|_)ids?$|^to$|_by$/.test(name);

/**
 * Values that follow `schema` (types, enums, formats, required fields, references that exist), each
 * replaced by a hostile value now and then, and objects with hostile keys beside their own.
 */
export function fromSchema(schema: Schema, context: SchemaContext, name = '', depth = 0): fc.Arbitrary<Node> {
  const typed = typedFromSchema(resolve(schema, context), context, name, depth);
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
}

function typedFromSchema(schema: Schema, context: SchemaContext, name: string, depth: number): fc.Arbitrary<Node> {
  if (depth > 4) return hostileLeaf;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) {
    return fc.oneof(...variants.map((variant: Schema) => typedFromSchema(resolve(variant, context), context, name, depth)));
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf.map((p: Schema) => resolve(p, context))) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return typedFromSchema(merged, context, name, depth);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum.map(leafOf));
  if (schema.const !== undefined) return fc.constant(leafOf(schema.const));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (name === 'routing_key' && context.routingKeys.length > 0) return fc.constantFrom(...context.routingKeys).map(str);
      if (referenceName(name) && context.ids.length > 0) return fc.constantFrom(...context.ids).map(str);
      if (schema.format === 'email') return fc.emailAddress().map(str);
      if (schema.format === 'date-time' || /_at$|datetime|^start|^end|time$/.test(name)) {
        return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => str(d.toISOString()));
      }
      return fc.string({ minLength: 1, maxLength: 12 }).map(str);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 100 }).map((n) => raw(String(n)));
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((n) => raw(JSON.stringify(n)));
    case 'boolean':
      return fc.boolean().map((b) => raw(String(b)));
    case 'null':
      return fc.constant(raw('null'));
    case 'array': {
      const items = schema.items ? fromSchema(schema.items, context, name, depth + 1) : hostileValue;
      return fc.array(items, { maxLength: 3 }).map(arr);
    }
    case 'object':
      return objectFromSchema(schema, context, depth);
    default:
      if (schema.properties) return objectFromSchema(schema, context, depth);
      return hostileValue;
  }
}

function leafOf(value: unknown): Node {
  return typeof value === 'string' ? str(value) : raw(JSON.stringify(value));
}

function objectFromSchema(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<Node> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const required = new Set<string>(schema.required ?? []);
  const fields = properties.map(([key, child]) => {
    const value = fromSchema(child, context, key, depth + 1);
    // Required fields are mostly present, optional ones now and then.
    return fc
      .option(value, { freq: required.has(key) ? 8 : 2, nil: undefined })
      .map((v) => (v === undefined ? null : ([key, v] as [string, Node])));
  });
  const extraKeys = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...POLLUTION_KEYS, 'polluted', 'toString', 'hasOwnProperty', '', 'a.b', '$gt', 'k'.repeat(300)),
        fc.string({ maxLength: 8 }),
      ),
      hostileValue,
    ),
    { maxLength: 2 },
  );
  const free =
    schema.additionalProperties && typeof schema.additionalProperties === 'object'
      ? fromSchema(schema.additionalProperties, context, '', depth + 1)
      : null;
  const additional = free
    ? fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), free), { maxLength: 3 })
    : fc.constant([] as [string, Node][]);
  return fc.tuple(fc.tuple(...(fields.length ? fields : [fc.constant(null)])), extraKeys, additional).map(([own, extra, more]) => {
    const entries = own.filter((e): e is [string, Node] => e !== null);
    return obj([...entries, ...more, ...extra]);
  });
}

// ---- writing a body -----------------------------------------------------------------------------

export function toJson(node: Node): string {
  switch (node.t) {
    case 'raw':
      return node.text;
    case 'str':
      return JSON.stringify(node.v);
    case 'arr':
      return `[${node.items.map(toJson).join(',')}]`;
    case 'obj':
      return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  }
}

/** Bracket-nested form pairs of a tree (`a[b][]=1`); `indexed` writes array positions (`a[0]`). */
export function toFormPairs(node: Node, prefix = '', indexed = false): [string, string][] {
  switch (node.t) {
    case 'raw':
      return [[prefix, node.text === 'null' ? '' : node.text]];
    case 'str':
      return [[prefix, node.v]];
    case 'arr':
      return node.items.flatMap((item, i) => toFormPairs(item, `${prefix}[${indexed ? i : ''}]`, indexed));
    case 'obj':
      return node.entries.flatMap(([k, v]) => toFormPairs(v, prefix ? `${prefix}[${k}]` : k, indexed));
  }
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) is written as the bytes of one
 * (ED A0 80), which no UTF-8 decoder accepts. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

const encodeFormPart = (text: string) => encode(text).replace(/%5B/g, '[').replace(/%5D/g, ']');

/** Form pieces no schema produces: huge indexes, deep brackets, pollution, broken escapes. */
export const hostileFormPiece = fc.constantFrom(
  'a[4294967294]=1',
  'destination_ids[4294967294]=x',
  'meta[list][999999999]=1',
  `deep${'[a]'.repeat(250)}=1`,
  `deep${'[]'.repeat(250)}=1`,
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  'meta[__proto__][polluted]=yes',
  'meta[constructor][prototype][polluted]=yes',
  'options[__proto__][polluted]=yes',
  '%ZZ=1',
  'a%=1',
  'a[=1',
  'a]]=1',
  '[]=1',
  '&&&',
  '=',
  'name=%C3%28%FF',
  'a[][][]=1&a[][x]=2',
  'a[]=1&a[x]=2',
  'a=1&a[b]=2',
);

export interface WrittenBody {
  bytes: Buffer;
  contentType: string | undefined;
  /** What was sent, short enough for a failure message. */
  describe: string;
}

function withInvalidUtf8(text: string, mark: string): Buffer {
  const parts = text.split(mark);
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(INVALID_UTF8_BYTES);
    chunks.push(Buffer.from(part, 'utf8'));
  });
  return Buffer.concat(chunks);
}

const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'application/vnd.api+json',
  undefined,
];

/** Whole bodies that are hostile from their first byte. */
const hostileWholeBody = fc.constantFrom(
  '',
  '   \n',
  'null',
  '[]',
  '[1,2,3]',
  '"text"',
  '123',
  '1e400',
  '{"a":',
  '{"a":NaN}',
  '{"a":1e400}',
  'NaN',
  '{"a":1}{"b":2}',
  '\uFEFF{"a":1}',
  `${'['.repeat(300)}${']'.repeat(300)}`,
  `${'{"a":'.repeat(300)}1${'}'.repeat(300)}`,
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  `[${new Array(1_500).fill('0').join(',')}]`,
);

/** A request body for a route whose documented request schema is `schema` (or none). */
export function bodyFor(schema: Schema | undefined, context: SchemaContext): fc.Arbitrary<WrittenBody> {
  const resolved = schema ? resolve(schema, context) : {};
  // A route that takes any body (the inbound webhook) gets what senders post, and anything else.
  const anyBody = !resolved.type && !resolved.properties && !resolved.anyOf && !resolved.oneOf && !resolved.allOf;
  const tree = anyBody ? fc.oneof(senderPayload, hostileValue) : typedFromSchema(resolved, context, '', 0);
  const asJson = fc
    .tuple(tree, fc.constantFrom<string | undefined>('application/json', 'application/json; charset=utf-8', ...CONTENT_TYPES))
    .map(([node, contentType]) => {
      const text = toJson(node);
      const bytes = withInvalidUtf8(text, JSON.stringify(INVALID_UTF8_MARK).slice(1, -1));
      return { bytes, contentType, describe: `${contentType} ${text.slice(0, 600)}` };
    });
  const asForm = fc
    .tuple(tree, fc.boolean(), fc.array(hostileFormPiece, { maxLength: 2 }), fc.boolean())
    .map(([node, indexed, pieces, rawBytes]) => {
      const pairs = node.t === 'obj' ? toFormPairs(node, '', indexed) : [['value', toJson(node)] as [string, string]];
      const text = [...pairs.map(([k, v]) => `${encodeFormPart(k)}=${encode(v)}`), ...pieces].join('&');
      const markEncoded = encode(INVALID_UTF8_MARK);
      const bytes = rawBytes ? withInvalidUtf8(text, markEncoded) : Buffer.from(text.split(markEncoded).join('%C3%28%FF'), 'utf8');
      return { bytes, contentType: 'application/x-www-form-urlencoded', describe: `form ${text.slice(0, 600)}` };
    });
  const whole = fc
    .tuple(hostileWholeBody, fc.constantFrom<string | undefined>('application/json', 'application/x-www-form-urlencoded', ...CONTENT_TYPES))
    .map(([text, contentType]) => ({ bytes: Buffer.from(text, 'utf8'), contentType, describe: `${contentType} ${text.slice(0, 200)}` }));
  return fc.oneof({ weight: 5, arbitrary: asJson }, { weight: 3, arbitrary: asForm }, { weight: 2, arbitrary: whole });
}

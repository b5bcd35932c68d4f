// The embedded DynamoDB's expressions parsed once per shape (infra/local/dynalite-worker.mjs, tuned).
// dynalite parses every condition, update, key condition, filter and projection expression of
// every request with its PEG parsers, resolving `#names` and `:values` while it parses: ~22 % of
// the emulator thread's busy time under acknowledgements, ~10 % in the throughput run. The service
// sends a few dozen shapes of expression, each with new values every time. A parse that succeeded is
// kept as a template, by its text, the names' mapping and the type of every value (what the parse
// depends on); a request of the same shape gets the template with its own values put where the
// first request's were, and its names and values marked used as the parse would have marked them.

/** Where a value of the request goes in a kept parse. */
class ValueSlot {
  constructor(name) {
    this.name = name;
  }
}

/**
 * What the parsers check against a value's content rather than its type: BETWEEN's bounds (lower ≤
 * upper) and attribute_type's type name. Expressions holding either are parsed every time.
 */
const VALUE_CHECKED = /between|attribute_type/i;

/** Kept parses at most; past it the cache starts again (shapes are few: a full cache is a sign of unbounded names). */
const MAX_KEPT = 2_000;

const TYPES = ['S', 'N', 'B', 'NULL', 'BOOL', 'SS', 'NS', 'BS', 'L', 'M'];
const typeOf = (value) => (value && typeof value === 'object' ? TYPES.filter((type) => value[type] != null).join('+') : typeof value);

/**
 * A copy of a parse's tree: arrays and objects copied with their prototypes (dynalite's trees hold
 * prototype-less objects), shared nodes shared in the copy too, and `swap` deciding what a node
 * becomes before it is copied (a value of the request → its slot, a slot → the request's value).
 */
function copyTree(node, swap, copies = new Map()) {
  const swapped = swap(node);
  if (swapped !== undefined) return swapped;
  if (node === null || typeof node !== 'object') return node;
  if (copies.has(node)) return copies.get(node);
  if (Array.isArray(node)) {
    const copy = [];
    copies.set(node, copy);
    for (const item of node) copy.push(copyTree(item, swap, copies));
    return copy;
  }
  const prototype = Object.getPrototypeOf(node);
  if (prototype !== Object.prototype && prototype !== null) return node;
  const copy = Object.create(prototype);
  copies.set(node, copy);
  for (const key of Object.keys(node)) copy[key] = copyTree(node[key], swap, copies);
  return copy;
}

/** Counts of parses made and parses reused, over every parser of the thread (reported with the store's calls). */
export const expressionParses = { parsed: 0, reused: 0 };

/**
 * Makes `parser.parse` keep what it parses (see above); `name` tells the parsers apart in the keys.
 * The parse function is called as dynalite calls it: `parse(text, { context })`, the context holding
 * `attrNames`, `attrVals`, `unusedAttrNames`, `unusedAttrVals` (deleted from as they are used) and
 * constant helpers. A parse that throws or answers an error string is never kept.
 */
export function keepParses(parser, name) {
  const parse = parser.parse;
  const kept = new Map();
  parser.parse = function parseOnce(text, options) {
    const context = options?.context;
    if (!context || typeof text !== 'string' || VALUE_CHECKED.test(text)) {
      expressionParses.parsed++;
      return parse.call(this, text, options);
    }
    const names = context.attrNames ?? {};
    const values = context.attrVals ?? {};
    const key = [
      name,
      text,
      context.isKeyCondition ? 1 : 0,
      JSON.stringify(names),
      Object.keys(values)
        .map((value) => `${value}=${typeOf(values[value])}`)
        .join(','),
    ].join('\u0000');
    let shape = kept.get(key);
    if (!shape) {
      // Parsed against sets of every name and value, so what this expression uses is known whatever
      // the request's other expressions used before it.
      const unusedNames = Object.fromEntries(Object.keys(names).map((each) => [each, true]));
      const unusedValues = Object.fromEntries(Object.keys(values).map((each) => [each, true]));
      expressionParses.parsed++;
      const result = parse.call(this, text, {
        ...options,
        context: { ...context, unusedAttrNames: unusedNames, unusedAttrVals: unusedValues },
      });
      const usedNames = Object.keys(names).filter((each) => !(each in unusedNames));
      const usedValues = Object.keys(values).filter((each) => !(each in unusedValues));
      markUsed(context, usedNames, usedValues);
      if (result === null || typeof result !== 'object') return result;
      const slots = new Map(Object.keys(values).map((each) => [values[each], new ValueSlot(each)]));
      shape = { template: copyTree(result, (node) => slots.get(node)), usedNames, usedValues };
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(key, shape);
      return result;
    }
    expressionParses.reused++;
    markUsed(context, shape.usedNames, shape.usedValues);
    return copyTree(shape.template, (node) => (node instanceof ValueSlot ? values[node.name] : undefined));
  };
}

function markUsed(context, names, values) {
  if (context.unusedAttrNames) for (const each of names) delete context.unusedAttrNames[each];
  if (context.unusedAttrVals) for (const each of values) delete context.unusedAttrVals[each];
}

// Handlebars for account-written templates, with nothing a hostile template can reach: an isolated
// environment, a checked AST (no partials, decorators, helper calls or prototype names), data
// objects without prototypes, no prototype access at run time, and bounded output. Every template
// renders as plain text; HTML is made from the text afterwards (render.ts), never by the template.
import { onFirstUse } from '../../on-first-use';

/** Made with Handlebars' compiler when an account's template is first checked or rendered (lib/on-first-use.ts). */
const handlebarsEnv = /* @__PURE__ */ onFirstUse(() =>
  import('handlebars').then(({ default: Handlebars }) => {
    const env = Handlebars.create();
    // Only the block helpers a text template needs; every other built-in is gone from this environment.
    for (const name of ['each', 'lookup', 'log', 'helperMissing', 'blockHelperMissing']) env.unregisterHelper(name);
    return env;
  }),
);

const BLOCK_HELPERS = new Set(['if', 'unless', 'with']);
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FORBIDDEN_SEGMENTS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export class TemplateProblem extends Error {}

interface Node {
  type: string;
  [key: string]: unknown;
}

function describePath(path: Node): string {
  // A path's original is its text, a literal's its value; a sub-expression has none.
  const { original } = path;
  return typeof original === 'string' || typeof original === 'number' || typeof original === 'boolean' ? String(original) : '';
}

function checkPath(path: Node): void {
  if (path.type !== 'PathExpression') throw new TemplateProblem('only placeholders such as {{alert.title}} are allowed');
  const original = describePath(path);
  if (path.data) throw new TemplateProblem(`{{${original}}} is not allowed: @ variables are not placeholders`);
  if ((path.depth as number) > 0 || /^(this\b|\.)/.test(original))
    throw new TemplateProblem(`{{${original}}} is not allowed: use a full placeholder such as {{alert.title}}`);
  for (const part of path.parts as string[]) {
    if (!SEGMENT.test(part) || part.startsWith('__') || FORBIDDEN_SEGMENTS.has(part)) {
      throw new TemplateProblem(`{{${original}}} is not allowed`);
    }
  }
}

function checkProgram(program: Node | null | undefined): void {
  if (!program) return;
  for (const node of program.body as Node[]) checkStatement(node);
}

function checkStatement(node: Node): void {
  switch (node.type) {
    case 'ContentStatement':
    case 'CommentStatement':
      return;
    case 'MustacheStatement': {
      if ((node.params as Node[]).length || node.hash)
        throw new TemplateProblem(`{{${describePath(node.path as Node)} …}}: helpers are not allowed, only placeholders`);
      checkPath(node.path as Node);
      return;
    }
    case 'BlockStatement': {
      const name = describePath(node.path as Node);
      if (!BLOCK_HELPERS.has(name)) throw new TemplateProblem(`{{#${name}}} is not allowed; blocks: #if, #unless, #with`);
      const params = node.params as Node[];
      if (params.length !== 1 || node.hash) throw new TemplateProblem(`{{#${name}}} takes exactly one placeholder`);
      checkPath(params[0]);
      checkProgram(node.program as Node);
      checkProgram(node.inverse as Node);
      return;
    }
    case 'PartialStatement':
    case 'PartialBlockStatement':
      throw new TemplateProblem('partials ({{> …}}) are not allowed');
    default:
      throw new TemplateProblem(`${node.type.replace(/Statement$|Block$/, '').toLowerCase()}s are not allowed`);
  }
}

/** Parse error messages of Handlebars span lines with a caret drawing: keep the words. */
function parseMessage(error: unknown): string {
  const lines = String((error as Error)?.message ?? error).split('\n');
  return [lines[0], lines[lines.length - 1]]
    .filter((line, index, all) => line && all.indexOf(line) === index)
    .join(': ')
    .replace(/:+\s*$/, '');
}

export type CompiledTemplate = (data: Record<string, unknown>) => string;

const cache = new Map<string, CompiledTemplate>();
const CACHE_LIMIT = 500;

/** Checks and compiles a template; throws TemplateProblem with a message fit for a 400/422. */
export function compileTemplate(source: string): CompiledTemplate {
  const cached = cache.get(source);
  if (cached) return cached;
  const env = handlebarsEnv();
  let ast: Node;
  try {
    ast = env.parse(source) as unknown as Node;
  } catch (error) {
    throw new TemplateProblem(`syntax error: ${parseMessage(error)}`);
  }
  checkProgram(ast);
  const template = env.compile(source, {
    noEscape: true,
    strict: false,
    knownHelpersOnly: true,
    knownHelpers: { if: true, unless: true, with: true, each: false, lookup: false, log: false },
  });
  const compiled: CompiledTemplate = (data) =>
    template(data, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false, allowCallsToHelperMissing: false });
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, compiled);
  return compiled;
}

/** A plain data tree without prototypes, strings only, each cut to its bound. */
export function templateData(tree: Record<string, Record<string, string | number | null | undefined>>): Record<string, unknown> {
  const root = Object.create(null) as Record<string, unknown>;
  for (const [name, fields] of Object.entries(tree)) {
    const node = Object.create(null) as Record<string, string>;
    for (const [field, value] of Object.entries(fields)) {
      if (value !== null && value !== undefined) node[field] = String(value);
    }
    root[name] = Object.freeze(node);
  }
  return Object.freeze(root);
}

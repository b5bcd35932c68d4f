// Handlebars templates of `setval` and `incident` (a real Handlebars implementation, issue 11),
// rendered over the routing context {alert, log, log_parsed}. Templates are written by account admins
// but rendered for every routed alert, so they are held tight:
// - an isolated Handlebars environment with only the built-in helpers (no `log`), compiled with
//   knownHelpersOnly: a template cannot call anything else;
// - no partials and no decorators (a recursive inline partial would never end);
// - no `each` inside `each` (a template's cost stays linear in the data it walks);
// - no paths through __proto__, constructor or prototype, and prototype access stays off at run
//   time (Handlebars' default since 4.6, repeated here on purpose);
// - output is not HTML-escaped (titles are text) and is cut to a bound per field.
import { onFirstUse } from '../on-first-use';
import { LIMITS } from './limits';

/** The environment, made with Handlebars' compiler when a template is first checked or compiled (lib/on-first-use.ts). */
export const handlebarsEnv = /* @__PURE__ */ onFirstUse(() =>
  import('handlebars').then(({ default: Handlebars }) => {
    const env = Handlebars.create();
    env.unregisterHelper('log');
    return env;
  }),
);

const COMPILE_OPTIONS = {
  noEscape: true,
  strict: false,
  knownHelpersOnly: true,
  knownHelpers: { log: false },
  preventIndent: true,
} as const;

const RUNTIME_OPTIONS = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false } as const;

const FORBIDDEN = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

type Node = { type: string; [key: string]: unknown };

function checkAst(root: Node): string | null {
  let fault: string | null = null;
  const visit = (node: unknown, eachDepth: number, blockDepth: number): void => {
    if (fault || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, eachDepth, blockDepth);
      return;
    }
    const typed = node as Node;
    switch (typed.type) {
      case 'PartialStatement':
      case 'PartialBlockStatement':
        fault = 'may not use partials';
        return;
      case 'Decorator':
      case 'DecoratorBlock':
        fault = 'may not use decorators';
        return;
      case 'PathExpression':
        if ((typed.parts as string[]).some((part) => FORBIDDEN.has(part))) fault = `may not read ${String(typed.original)}`;
        return;
      case 'StringLiteral':
        if (FORBIDDEN.has(String(typed.value))) fault = `may not look up ${JSON.stringify(typed.value)}`;
        return;
      case 'BlockStatement': {
        const name = (typed.path as Node | undefined)?.original;
        const nextEach = name === 'each' ? eachDepth + 1 : eachDepth;
        if (nextEach > 1) {
          fault = 'may not nest {{#each}} inside {{#each}}';
          return;
        }
        if (blockDepth + 1 > 8) {
          fault = 'nests blocks deeper than 8 levels';
          return;
        }
        for (const [key, child] of Object.entries(typed))
          if (key !== 'loc') visit(child, key === 'program' || key === 'inverse' ? nextEach : eachDepth, blockDepth + 1);
        return;
      }
      default:
        for (const [key, child] of Object.entries(typed)) if (key !== 'loc') visit(child, eachDepth, blockDepth);
    }
  };
  visit(root, 0, 0);
  return fault;
}

/** null when `source` is an acceptable template; else a message that completes "<path> …". */
export function checkTemplate(source: string): string | null {
  if (source.length > LIMITS.templateChars) return `is a template longer than ${LIMITS.templateChars} characters`;
  const env = handlebarsEnv();
  let ast: Node;
  try {
    ast = env.parse(source) as unknown as Node;
  } catch (error) {
    return `is not a valid Handlebars template: ${firstLine(error)}`;
  }
  const fault = checkAst(ast);
  if (fault) return `is a template that ${fault}`;
  try {
    env.precompile(source, COMPILE_OPTIONS);
  } catch (error) {
    return `is not a valid Handlebars template: ${firstLine(error)}`;
  }
  return null;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0].slice(0, 300);
}

export type RenderTemplate = (data: object) => string;

const cache = new Map<string, RenderTemplate>();

/** A renderer of a checked template, cut to `maxChars`; compiled once per source text. */
export function compileTemplate(source: string, maxChars: number): RenderTemplate {
  const key = `${maxChars}:${source}`;
  let render = cache.get(key);
  if (!render) {
    // Text without mustaches renders to itself: no compilation needed.
    if (!source.includes('{{')) {
      const fixed = source.slice(0, maxChars);
      render = () => fixed;
    } else {
      const template = handlebarsEnv().compile(source, COMPILE_OPTIONS);
      render = (data) => {
        const out = template(data, RUNTIME_OPTIONS);
        return out.length > maxChars ? out.slice(0, maxChars) : out;
      };
    }
    if (cache.size > 5000) cache.clear();
    cache.set(key, render);
  }
  return render;
}

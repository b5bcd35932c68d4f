// Safe loading of router and notification rule YAML: the text is bounded, aliases may not expand
// past a small bound (no "billion laughs"), custom tags, duplicate keys, several documents,
// prototype keys and non-finite numbers are refused, and nesting and node counts are bounded after
// expansion. A syntax error names its line and column. The text itself is never rewritten: the
// caller stores it exactly as sent.
import type { Document, LineCounter } from 'yaml';
import { onFirstUse } from '../on-first-use';
import { FaultList, isMapping } from './faults';
import type { Locate, PathSegment } from './faults';
import { LIMITS } from './limits';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The YAML parser, loaded with the first rule text a process reads (lib/on-first-use.ts). */
export const yamlParser = /* @__PURE__ */ onFirstUse(() => import('yaml'));

export type LoadedYaml = { ok: true; value: unknown; locate: Locate } | { ok: false; faults: FaultList };

/** The first line of a `yaml` error message without its own position suffix. */
function reason(message: string): string {
  const firstLine = message.split('\n', 1)[0];
  return firstLine.replace(/ at line \d+, column \d+:?$/, '');
}

function locator(doc: Document, lines: LineCounter): Locate {
  return (path) => {
    // The deepest node that exists on the path: a missing key is reported where its parent is.
    for (let length = path.length; length >= 0; length--) {
      let node: unknown;
      try {
        node = length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true);
      } catch {
        node = undefined;
      }
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) {
        const { line, col } = lines.linePos(range[0]);
        return { line, column: col };
      }
    }
    return undefined;
  };
}

/** Walks the loaded value: depth, node count, keys and numbers. Reports the first fault only. */
function checkShape(value: unknown, faults: FaultList): void {
  let nodes = 0;
  const visit = (node: unknown, path: PathSegment[], depth: number): boolean => {
    if (++nodes > LIMITS.nodes) {
      faults.add([], `holds more than ${LIMITS.nodes} values once YAML aliases are expanded`);
      return false;
    }
    if (depth > LIMITS.depth) {
      faults.add(path, `is nested deeper than ${LIMITS.depth} levels`);
      return false;
    }
    if (typeof node === 'number' && !Number.isFinite(node)) {
      faults.add(path, 'must be a finite number');
      return false;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (!visit(node[i], [...path, i], depth + 1)) return false;
    } else if (isMapping(node)) {
      for (const key of Object.keys(node)) {
        if (FORBIDDEN_KEYS.has(key)) {
          faults.add([...path, key], 'is not an allowed key');
          return false;
        }
        if (!visit(node[key], [...path, key], depth + 1)) return false;
      }
    } else if (node instanceof Date || (typeof node === 'object' && node !== null)) {
      faults.add(path, 'holds a value YAML rules cannot use');
      return false;
    }
    return true;
  };
  visit(value, [], 0);
}

/** `field` names the request field in messages about the text as a whole (`rules`, `settings`). */
export function loadYaml(text: unknown, field = 'rules'): LoadedYaml {
  const faults = new FaultList();
  if (typeof text !== 'string') {
    faults.add([], `${field} must be a YAML text`);
    return { ok: false, faults };
  }
  if (Buffer.byteLength(text, 'utf8') > LIMITS.yamlBytes) {
    faults.add([], `${field} is longer than ${LIMITS.yamlBytes} bytes`);
    return { ok: false, faults };
  }
  if (text.trim() === '') {
    faults.add([], `${field} is empty`);
    return { ok: false, faults };
  }
  const { LineCounter, parseDocument } = yamlParser();
  const lines = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, {
      lineCounter: lines,
      prettyErrors: true,
      uniqueKeys: true,
      version: '1.2',
      schema: 'core',
      merge: false,
    });
  } catch (error) {
    faults.add([], `${field} is not valid YAML: ${error instanceof RangeError ? 'too deeply nested' : 'unreadable'}`);
    return { ok: false, faults };
  }
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length) {
    for (const problem of problems.slice(0, 5)) {
      const at = problem.linePos?.[0];
      faults.faults.push({
        path: '',
        message: at
          ? `${field} is not valid YAML at line ${at.line}, column ${at.col}: ${reason(problem.message)}`
          : `${field} is not valid YAML: ${reason(problem.message)}`,
        ...(at ? { line: at.line, column: at.col } : {}),
      });
    }
    return { ok: false, faults };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: LIMITS.aliasCount });
  } catch (error) {
    const message =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `${field} uses YAML aliases that expand too far (the limit guards against alias bombs)`
        : `${field} is not valid YAML: ${error instanceof Error ? reason(error.message) : 'unreadable'}`;
    faults.faults.push({ path: '', message });
    return { ok: false, faults };
  }
  const locate = locator(doc, lines);
  const shape = new FaultList(locate);
  checkShape(value, shape);
  if (!shape.ok) return { ok: false, faults: shape };
  return { ok: true, value, locate };
}

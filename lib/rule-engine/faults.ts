// Validation faults: a path into the rules document, a message naming it, and where it is in the
// text. The use case turns them into 422 (v4) / 400 (earlier) messages.
export type PathSegment = string | number;

export interface RuleFault {
  /** `rules[2].actions[0].type` */
  path: string;
  /** The full sentence, path and position included. */
  message: string;
  line?: number;
  column?: number;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export type Locate = (path: readonly PathSegment[]) => { line: number; column: number } | undefined;

/** Collects faults for one document; `locate` maps a path to its line and column. */
export class FaultList {
  readonly faults: RuleFault[] = [];
  readonly warnings: string[] = [];

  constructor(private readonly locate: Locate = () => undefined) {}

  /** `text` follows the path: add(['rules', 0], 'has no match') → "rules[0] has no match". */
  add(path: readonly PathSegment[], text: string): void {
    const where = this.locate(path);
    const name = formatPath(path);
    const sentence = name ? `${name} ${text}` : text;
    this.faults.push({
      path: name,
      message: where ? `${sentence} (line ${where.line}, column ${where.column})` : sentence,
      ...(where ? { line: where.line, column: where.column } : {}),
    });
  }

  warn(path: readonly PathSegment[], text: string): void {
    const where = this.locate(path);
    const name = formatPath(path);
    const sentence = name ? `${name} ${text}` : text;
    this.warnings.push(where ? `${sentence} (line ${where.line}, column ${where.column})` : sentence);
  }

  get ok(): boolean {
    return this.faults.length === 0;
  }
}

export function describeValue(value: unknown): string {
  let text: string;
  switch (typeof value) {
    case 'object':
      return value === null ? 'null' : Array.isArray(value) ? 'a list' : 'a mapping';
    case 'string':
      text = JSON.stringify(value);
      break;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      text = String(value);
      break;
    default:
      // A function or a symbol: no YAML document holds one.
      text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

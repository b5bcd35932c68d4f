// zod schemas are the single truth for inputs; this turns their issues into the contract's
// messages, each naming its field ("title can't be blank", "urgency must be one of: …").
import type { z } from 'zod';
import { Invalid, Unprocessable } from './errors';

function fieldName(path: PropertyKey[]): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name ? `.${String(part)}` : String(part);
  }
  return name || 'body';
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let current = data;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

type Issue = z.core.$ZodIssue;

export function issueMessage(issue: Issue, data: unknown): string {
  const field = fieldName(issue.path);
  const value = valueAt(data, issue.path);
  const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  switch (issue.code) {
    case 'invalid_type':
      if (blank) return `${field} can't be blank`;
      return `${field} must be ${issue.expected === 'array' ? 'an array' : issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
    case 'invalid_value':
      if (blank) return `${field} can't be blank`;
      return `${field} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return `${field} can't be blank`;
      if (issue.origin === 'string') return `${field} is too short (at least ${issue.minimum} characters)`;
      if (issue.origin === 'array')
        return `${field} must have at least ${issue.minimum} ${Number(issue.minimum) === 1 ? 'entry' : 'entries'}`;
      return `${field} must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `${field} is too long (at most ${issue.maximum} characters)`;
      if (issue.origin === 'array') return `${field} must have at most ${issue.maximum} entries`;
      return `${field} must be at most ${issue.maximum}`;
    case 'invalid_format':
      return `${field} is not a valid ${issue.format === 'email' ? 'e-mail address' : issue.format}`;
    case 'custom':
      return issue.message.startsWith(field) ? issue.message : `${field} ${issue.message}`;
    default:
      return blank ? `${field} can't be blank` : `${field} is invalid`;
  }
}

/**
 * Validates input against a schema and runs `checks`, the rules a schema cannot express across
 * fields (at least one destination, say); throws Invalid (422 v4 / 400 earlier) naming every field
 * at fault, so one answer lists them all.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  data: unknown,
  checks: (body: Record<string, unknown>) => string[] = () => [],
): z.infer<S> {
  const result = schema.safeParse(data);
  const messages = [
    ...(result.success ? [] : result.error.issues.map((issue) => issueMessage(issue, data))),
    ...checks((data ?? {}) as Record<string, unknown>),
  ];
  if (messages.length > 0) throw new Invalid([...new Set(messages)]);
  return (result as { data: z.infer<S> }).data;
}

/** parseInput for the routes whose validation errors are 422 on every interface (docs/api.md#authentication's
 * password routes under /public). */
export function parseUnprocessable<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  try {
    return parseInput(schema, data);
  } catch (error) {
    if (error instanceof Invalid) throw new Unprocessable(error.messages);
    throw error;
  }
}

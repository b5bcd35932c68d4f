// Limits every parsed request body must respect before any code reads it. Hostile bodies must never
// reach the process or the store: keys that could reach an object's prototype are dropped, and
// bodies too deep, too wide or holding numbers JSON cannot represent are refused at once, so no
// request can make the server walk a billion array slots or hand the marshaller -Infinity.
import { BODY_LIMITS, numberProblem, UNSAFE_KEYS } from '../encoding/limits';
import { Invalid } from './errors';

function pathText(path: (string | number)[]): string {
  let name = '';
  for (const part of path) name += typeof part === 'number' ? `[${part}]` : name ? `.${part}` : part;
  return name || 'body';
}

/**
 * Checks a parsed body in place, iteratively (no recursion a deep body could exhaust): drops unsafe
 * keys at every depth and throws Invalid (422 v4 / 400 earlier) naming the first field over a limit.
 */
export function checkBody<T>(body: T): T {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: body, path: [] }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (++nodes > BODY_LIMITS.maxNodes) throw new Invalid(`body has more than ${BODY_LIMITS.maxNodes} values`);
    if (typeof value === 'number') {
      const problem = numberProblem(value);
      if (problem) throw new Invalid(`${pathText(path)} ${problem}`);
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= BODY_LIMITS.maxDepth) {
      throw new Invalid(`${pathText(path)} is nested more than ${BODY_LIMITS.maxDepth} levels deep`);
    }
    if (Array.isArray(value)) {
      if (value.length > BODY_LIMITS.maxArrayLength) {
        throw new Invalid(`${pathText(path)} must have at most ${BODY_LIMITS.maxArrayLength} entries`);
      }
      value.forEach((element, index) => stack.push({ value: element, path: [...path, index] }));
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (UNSAFE_KEYS.has(key)) {
        delete record[key];
        continue;
      }
      stack.push({ value: record[key], path: [...path, key] });
    }
  }
  return body;
}

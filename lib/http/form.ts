// application/x-www-form-urlencoded with Rails-style bracket nesting (contract §4):
// `a[b]=1` → {a:{b:'1'}}, `a[]=1&a[]=2` → {a:['1','2']}, `a[][x]=1&a[][y]=2&a[][x]=3` → objects
// that start anew when a key repeats, `a[0][x]=1` → {a:[{x:'1'}]}.

type Node = Record<string, unknown> | unknown[];

function splitKey(key: string): string[] {
  const first = key.indexOf('[');
  if (first < 0) return [key];
  const parts = [key.slice(0, first)];
  const re = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(key.slice(first)))) parts.push(match[1]);
  return parts;
}

function assign(target: Node, parts: string[], value: string): void {
  const [head, ...rest] = parts;
  if (Array.isArray(target)) {
    if (head === '') {
      if (rest.length === 0) {
        target.push(value);
        return;
      }
      // `a[][x]`: continue the last object unless it already has this key, then start a new one.
      const last = target[target.length - 1] as Record<string, unknown> | undefined;
      const leaf = rest[0];
      const child = last && typeof last === 'object' && !Array.isArray(last) && !(leaf in last) ? last : {};
      if (child !== last) target.push(child);
      assign(child as Node, rest, value);
      return;
    }
    const index = Number(head);
    if (rest.length === 0) {
      target[index] = value;
      return;
    }
    if (typeof target[index] !== 'object' || target[index] === null) target[index] = rest[0] === '' ? [] : {};
    assign(target[index] as Node, rest, value);
    return;
  }
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const next = rest[0];
  const wantsArray = next === '' || /^\d+$/.test(next);
  if (typeof target[head] !== 'object' || target[head] === null) target[head] = wantsArray ? [] : {};
  assign(target[head] as Node, rest, value);
}

function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  }
  return value;
}

export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (!key) continue;
    assign(root, splitKey(key), value);
  }
  return compact(root) as Record<string, unknown>;
}

// Settings given to `cdk deploy` as context (`-c key=value`): the non-empty strings among `keys`.
import type { Node } from 'constructs';

export function contextStrings<K extends string>(node: Node, keys: readonly K[]): Partial<Record<K, string>> {
  const values: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value: unknown = node.tryGetContext(key);
    if (typeof value === 'string' && value.trim() !== '') values[key] = value.trim();
  }
  return values;
}

// The index keys of a stored team: the one place that derives them, so every write of a team
// (the teams resource, membership edits from account users) keeps them the same.
import type { Entity } from '../store/entities';

export function teamIndexKeys(_team: Entity): Record<string, string | undefined> {
  return {};
}

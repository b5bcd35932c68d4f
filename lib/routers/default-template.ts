// GET /router/default-template/:type (docs/api.md#routers): the starting YAML of a router or a notification
// rule, answered as a JSON string that POST /router accepts as it is. Another type is a 404.
import { NotFound } from '../http/errors';
import { DEFAULT_TEMPLATES } from '../rule-engine';

export function defaultTemplate(type: string): string {
  const key = type.trim().toLowerCase();
  if (key !== 'router' && key !== 'notification')
    throw new NotFound(`No default template for type ${type}: the types are router and notification`);
  return DEFAULT_TEMPLATES[key];
}

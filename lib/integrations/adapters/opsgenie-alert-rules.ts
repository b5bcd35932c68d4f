// The checks Opsgenie's Alert API makes before it answers 202 (docs/api.md#opsgenie-alert-api-drop-in):
// create's required message and its documented length limits, the five priorities, the shapes of
// tags, details, actions and responders; the identifierType of close, acknowledge and the updates.
// Each fault is keyed by the field it names, as Opsgenie's 422 `errors` map is. Pure: whether the
// key names an integration is the caller's check (it needs the store).
import { isRecord } from './fields';

export const OPSGENIE_PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
export const OPSGENIE_IDENTIFIER_TYPES = ['id', 'alias', 'tiny'] as const;
export const OPSGENIE_RESPONDER_TYPES = ['team', 'user', 'escalation', 'schedule'] as const;
/** What a request through the drop-in asks: a create, or one of the calls on an existing alert. */
export const OPSGENIE_VERBS = ['create', 'close', 'acknowledge', 'message', 'description'] as const;

export type OpsgeniePriority = (typeof OPSGENIE_PRIORITIES)[number];
export type OpsgenieIdentifierType = (typeof OPSGENIE_IDENTIFIER_TYPES)[number];
export type OpsgenieVerb = (typeof OPSGENIE_VERBS)[number];

/** Opsgenie's documented maxima, in characters (Unicode code points: Alertmanager and Grafana cut
 * the message at 130 runes, and a rune is a code point, not a UTF-16 unit). */
export const OPSGENIE_LIMITS = { message: 130, alias: 512, description: 15_000 } as const;

/** Every fault, keyed by the field (`message`, `responders[0].type`, `identifierType`); empty when valid. */
export type OpsgenieFaults = Record<string, string>;

const codePoints = (value: string) => [...value].length;
const absent = (value: unknown) => value === undefined || value === null;
const blank = (value: unknown) => absent(value) || (typeof value === 'string' && value.trim() === '');

function limitedText(faults: OpsgenieFaults, value: unknown, field: string, options: { required?: boolean; max?: number }): void {
  if (blank(value)) {
    if (options.required) faults[field] = `${field} is required and can not be blank`;
    return;
  }
  if (typeof value !== 'string') faults[field] = `${field} must be a string`;
  else if (options.max !== undefined && codePoints(value) > options.max) {
    faults[field] = `${field} can be at most ${options.max} characters (it has ${codePoints(value)})`;
  }
}

function stringArray(faults: OpsgenieFaults, value: unknown, field: string): void {
  if (absent(value)) return;
  if (!Array.isArray(value)) faults[field] = `${field} must be an array of strings`;
  else {
    const index = value.findIndex((item) => typeof item !== 'string');
    if (index >= 0) faults[`${field}[${index}]`] = `${field}[${index}] must be a string`;
  }
}

/** responders / visibleTo: `{type, id | name | username}` each. */
function recipients(faults: OpsgenieFaults, value: unknown, field: string): void {
  if (absent(value)) return;
  if (!Array.isArray(value)) {
    faults[field] = `${field} must be an array of {type, id | name | username}`;
    return;
  }
  value.forEach((entry, index) => {
    const at = `${field}[${index}]`;
    if (!isRecord(entry)) {
      faults[at] = `${at} must be an object`;
      return;
    }
    const type = typeof entry.type === 'string' ? entry.type.trim().toLowerCase() : '';
    if (!(OPSGENIE_RESPONDER_TYPES as readonly string[]).includes(type)) {
      faults[`${at}.type`] = `${at}.type must be one of ${OPSGENIE_RESPONDER_TYPES.join(', ')}`;
    }
    if (blank(entry.id) && blank(entry.name) && blank(entry.username)) faults[at] = `${at} must name its id, name or username`;
  });
}

/** The priority a create asks for (absent when it names none), read as Opsgenie spells them. */
export function priorityOf(value: unknown): OpsgeniePriority | undefined {
  if (typeof value !== 'string') return undefined;
  const wanted = value.trim().toUpperCase();
  return OPSGENIE_PRIORITIES.find((priority) => priority === wanted);
}

/** POST /v2/alerts. */
export function checkOpsgenieCreate(body: unknown): OpsgenieFaults {
  if (!isRecord(body)) return { body: 'The request body must be a JSON object' };
  const faults: OpsgenieFaults = {};
  limitedText(faults, body.message, 'message', { required: true, max: OPSGENIE_LIMITS.message });
  limitedText(faults, body.alias, 'alias', { max: OPSGENIE_LIMITS.alias });
  limitedText(faults, body.description, 'description', { max: OPSGENIE_LIMITS.description });
  for (const field of ['entity', 'source', 'user', 'note'] as const) limitedText(faults, body[field], field, {});
  if (!blank(body.priority) && !priorityOf(body.priority)) faults.priority = `priority must be one of ${OPSGENIE_PRIORITIES.join(', ')}`;
  stringArray(faults, body.tags, 'tags');
  stringArray(faults, body.actions, 'actions');
  if (!absent(body.details) && !isRecord(body.details)) faults.details = 'details must be an object of key-value pairs';
  recipients(faults, body.responders, 'responders');
  recipients(faults, body.visibleTo, 'visibleTo');
  return faults;
}

/** The alert a call names: its identifier (decoded from the path) read as identifierType says. */
export interface OpsgenieTarget {
  identifier: string;
  identifierType: OpsgenieIdentifierType;
}

/** identifierType (default id, as Opsgenie's) and the identifier it reads: a tiny id is a number. */
export function checkOpsgenieTarget(
  identifier: string,
  identifierType: string | null,
): { target?: OpsgenieTarget; faults: OpsgenieFaults } {
  const type = (identifierType ?? 'id').trim().toLowerCase() || 'id';
  if (!(OPSGENIE_IDENTIFIER_TYPES as readonly string[]).includes(type)) {
    return { faults: { identifierType: `identifierType must be one of ${OPSGENIE_IDENTIFIER_TYPES.join(', ')}` } };
  }
  const faults: OpsgenieFaults = {};
  if (identifier.trim() === '') faults.identifier = 'The identifier can not be blank';
  else if (type === 'tiny' && !/^[1-9]\d{0,14}$/.test(identifier.trim())) faults.identifier = 'A tiny id is a whole number (1, 2, …)';
  else if (type === 'alias' && codePoints(identifier) > OPSGENIE_LIMITS.alias)
    faults.identifier = `An alias can be at most ${OPSGENIE_LIMITS.alias} characters`;
  return Object.keys(faults).length > 0 ? { faults } : { target: { identifier, identifierType: type as OpsgenieIdentifierType }, faults };
}

/** The body of close, acknowledge and the message / description updates (optional for close and acknowledge). */
export function checkOpsgenieActionBody(verb: Exclude<OpsgenieVerb, 'create'>, body: unknown): OpsgenieFaults {
  if (absent(body)) return {};
  if (!isRecord(body)) return { body: 'The request body must be a JSON object' };
  const faults: OpsgenieFaults = {};
  for (const field of ['user', 'source', 'note'] as const) limitedText(faults, body[field], field, {});
  if (verb === 'message') limitedText(faults, body.message, 'message', { required: true, max: OPSGENIE_LIMITS.message });
  if (verb === 'description') limitedText(faults, body.description, 'description', { max: OPSGENIE_LIMITS.description });
  return faults;
}

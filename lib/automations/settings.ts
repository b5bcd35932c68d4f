// An automation's settings (api-earlier.md "Automation", docs/api.md#automations): YAML with url and method
// (required), headers, params, data and auth {username, password}. Loaded with the rule engine's
// safe YAML loader (no alias bombs, line and column in messages). Text values may be Handlebars
// templates over the alert when a router runs the automation (`{{alert.title}}`), checked on save.
// The text is stored as sent; representations show it with the auth password replaced by a marker,
// and a save that sends the marker back keeps the stored password (docs/api.md#authentication: secrets never
// travel in readable objects).
import * as yaml from 'yaml';
import { checkTemplate, compileTemplate, loadYaml, yamlParser } from '../rule-engine';
import type { ParamValue } from '../outbound/http-client';

// Every representation of an automation reads its settings, so the YAML parser comes with this
// module rather than on first use (lib/on-first-use.ts); the routing worker imports it only when a
// router runs an automation (run-automation.ts).
yamlParser.provide(yaml);

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const PASSWORD_MARKER = '********';

export interface AutomationSettings {
  url: string;
  method: string;
  headers: Record<string, string>;
  params: Record<string, ParamValue | ParamValue[]>;
  data: unknown;
  auth: { username: string; password: string | null } | null;
}

export type SettingsResult = { ok: true; value: AutomationSettings } | { ok: false; messages: string[] };

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalarValue = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** Every string inside `value` with its path, for template checks and rendering. */
function eachString(value: unknown, path: string, visit: (text: string, path: string) => void): void {
  if (typeof value === 'string') visit(value, path);
  else if (Array.isArray(value)) value.forEach((item, i) => eachString(item, `${path}[${i}]`, visit));
  else if (isMapping(value)) for (const [key, item] of Object.entries(value)) eachString(item, `${path}.${key}`, visit);
}

/**
 * `templates: false` leaves out the checks of Handlebars templates, for readers of text that was
 * checked when it was saved (its representation, the stored password): they need no compiler.
 */
export function parseAutomationSettings(text: unknown, field = 'settings', { templates = true } = {}): SettingsResult {
  const loaded = loadYaml(text, field);
  if (!loaded.ok) return { ok: false, messages: loaded.faults.faults.map((fault) => fault.message) };
  const root = loaded.value;
  const where = (path: (string | number)[]) => {
    const at = loaded.locate(path);
    return at ? ` (line ${at.line}, column ${at.column})` : '';
  };
  if (!isMapping(root))
    return { ok: false, messages: [`${field} must be YAML with url and method (and optionally headers, params, data, auth)`] };
  const messages: string[] = [];
  const url = root.url;
  if (url === undefined || url === null || url === '') messages.push(`${field}.url can't be blank`);
  else if (typeof url !== 'string') messages.push(`${field}.url must be a text${where(['url'])}`);
  else {
    let parsed: URL | null = null;
    try {
      // A templated URL is checked with its templates filled in.
      parsed = new URL(url.includes('{{') ? url.replace(/\{\{[^}]*\}\}/g, 'x') : url);
    } catch {
      messages.push(`${field}.url is not a valid URL: ${JSON.stringify(url.slice(0, 200))}${where(['url'])}`);
    }
    if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      messages.push(`${field}.url must be http or https${where(['url'])}`);
  }
  const method = root.method;
  if (method === undefined || method === null || method === '') messages.push(`${field}.method can't be blank`);
  else if (typeof method !== 'string' || !(METHODS as readonly string[]).includes(method.trim().toUpperCase())) {
    messages.push(`${field}.method must be one of ${METHODS.join(', ')}${where(['method'])}`);
  }
  const headers: Record<string, string> = {};
  if (root.headers !== undefined && root.headers !== null) {
    if (!isMapping(root.headers)) messages.push(`${field}.headers must be a mapping of header names to values${where(['headers'])}`);
    else
      for (const [name, value] of Object.entries(root.headers)) {
        if (!isScalarValue(value) || value === null) messages.push(`${field}.headers.${name} must be a text${where(['headers', name])}`);
        else headers[name] = String(value);
      }
  }
  const params: Record<string, ParamValue | ParamValue[]> = {};
  if (root.params !== undefined && root.params !== null) {
    if (!isMapping(root.params)) messages.push(`${field}.params must be a mapping of URL parameters${where(['params'])}`);
    else
      for (const [name, value] of Object.entries(root.params)) {
        if (isScalarValue(value)) params[name] = value;
        else if (Array.isArray(value) && value.every(isScalarValue)) params[name] = value;
        else messages.push(`${field}.params.${name} must be a text, a number or a list of them${where(['params', name])}`);
      }
  }
  let auth: AutomationSettings['auth'] = null;
  if (root.auth !== undefined && root.auth !== null) {
    const raw = root.auth;
    if (!isMapping(raw)) messages.push(`${field}.auth must be a mapping with username and password${where(['auth'])}`);
    else if (typeof raw.username !== 'string' || raw.username === '')
      messages.push(`${field}.auth.username can't be blank${where(['auth'])}`);
    else if (raw.password === undefined || raw.password === null) auth = { username: raw.username, password: null };
    else if (typeof raw.password === 'string' || typeof raw.password === 'number')
      auth = { username: raw.username, password: String(raw.password) };
    else messages.push(`${field}.auth.password must be a text${where(['auth', 'password'])}`);
  }
  for (const key of templates ? (['url', 'headers', 'params', 'data'] as const) : []) {
    eachString(root[key], `${field}.${key}`, (value, path) => {
      if (!value.includes('{{')) return;
      const fault = checkTemplate(value);
      if (fault) messages.push(`${path} ${fault}`);
    });
  }
  if (messages.length > 0) return { ok: false, messages };
  return {
    ok: true,
    value: {
      url: url as string,
      method: (method as string).trim().toUpperCase(),
      headers,
      params,
      data: root.data ?? null,
      auth,
    },
  };
}

const RENDERED_MAX = 64 * 1024;

function render(value: unknown, data: object): unknown {
  if (typeof value === 'string') return value.includes('{{') ? compileTemplate(value, RENDERED_MAX)(data) : value;
  if (Array.isArray(value)) return value.map((item) => render(item, data));
  if (isMapping(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, render(item, data)]));
  return value;
}

/** The settings with their templates rendered over `data` ({alert, log, …}). */
export function renderSettings(settings: AutomationSettings, data: object): AutomationSettings {
  return {
    ...settings,
    url: render(settings.url, data) as string,
    headers: render(settings.headers, data) as Record<string, string>,
    params: render(settings.params, data) as AutomationSettings['params'],
    data: render(settings.data, data),
  };
}

/** The source range of auth.password in the text, when it is written there. */
function passwordRange(text: string): [number, number] | null {
  try {
    const doc = yaml.parseDocument(text, { uniqueKeys: false });
    const node = doc.getIn(['auth', 'password'], true);
    if ((yaml.isScalar(node) || yaml.isAlias(node)) && node.range) return [node.range[0], node.range[1]];
  } catch {
    // fall through
  }
  return null;
}

/** The settings text as representations show it: the auth password replaced by the marker. */
export function redactedSettings(text: string): string {
  const parsed = parseAutomationSettings(text, 'settings', { templates: false });
  const password = parsed.ok ? parsed.value.auth?.password : null;
  if (!password) return text;
  const range = passwordRange(text);
  let out = range ? `${text.slice(0, range[0])}"${PASSWORD_MARKER}"${text.slice(range[1])}` : text;
  // An anchor elsewhere may still spell it: no readable object ever holds it.
  if (out.includes(password)) out = out.split(password).join(PASSWORD_MARKER);
  return out;
}

/**
 * A new settings text whose auth.password is the marker (a client saving back what it read) gets the
 * stored password in its place; any other text is kept as sent.
 */
export function withStoredPassword(next: string, stored: string | null): string {
  const parsed = parseAutomationSettings(next, 'settings', { templates: false });
  if (!parsed.ok || parsed.value.auth?.password !== PASSWORD_MARKER || stored === null) return next;
  const previous = parseAutomationSettings(stored, 'settings', { templates: false });
  const password = previous.ok ? previous.value.auth?.password : null;
  const range = passwordRange(next);
  if (!password || !range) return next;
  return `${next.slice(0, range[0])}${JSON.stringify(password)}${next.slice(range[1])}`;
}

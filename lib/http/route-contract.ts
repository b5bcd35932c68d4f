// A route is declared once, in its area's routes.ts: method, path, credentials, what it reads (body
// schema, query) and what it answers (a schema per status), with the words the OpenAPI document shows.
// The route table (lib/api/route-table.ts) feeds API Gateway, the local server and the document from
// these declarations; the function that serves them gets a handler map typed from the same
// declaration (lib/api/handler.ts), so the compiler refuses a route without a handler, a handler
// without a route, and a handler whose answer does not fit the route's response schema.
import type * as z from 'zod';
import type { ApiInterface, ApiRequest } from './request';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route's error statuses. `invalid` is a validation failure: 422 under /api/v4, 400 elsewhere;
 * 422 itself is a validation failure that is 422 on every interface (the password routes, docs/api.md#authentication). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 502 | 'invalid';

export interface SuccessDoc {
  /** 4xx/502 only where the answer is a page of its own, not an error (one-click responses, Slack's
   * redirect after "Add to Slack", a refused single sign-on); 302 sends a browser on (its Location header). */
  status: 200 | 201 | 202 | 204 | 302 | 400 | 403 | 404 | 409 | 410 | 502;
  /** The body may also be an HTML page (text/html) for a browser. */
  html?: boolean;
  /** The body is text of this media type, never JSON (an iCalendar feed: text/calendar). */
  text?: string;
  description: string;
  /** The body; absent for 204. */
  schema?: z.core.$ZodType;
}

export interface QueryDoc {
  name: string;
  required: boolean;
  description: string;
  example?: string;
}

/** An error answered in a shape of the route's own instead of the error body (PagerDuty's, on /v2/enqueue). */
export interface OwnErrorDoc {
  status: Exclude<ErrorStatus, 'invalid'>;
  description: string;
  schema: z.core.$ZodType;
}

/** One route: where it is, who may call it, what it reads and what it answers. */
export interface RouteDeclaration {
  method: HttpMethod;
  /** API Gateway's route path: literal segments and {parameters}. */
  path: string;
  /** No credentials (login, signup, health, inbound webhooks). */
  public?: boolean;
  /** `optional`: a request without any credential header reaches the handler without a principal
   * (the earlier GET /integration/{id}, also a heartbeat's beat); one that carries any is authenticated.
   * `scim`: a SCIM token and nothing else (the /scim/v2 routes, docs/api.md#scim-provisioning). */
  credentials?: 'optional' | 'scim';
  summary: string;
  description?: string;
  tag: string;
  /** The JSON body the route reads (every entry is also the shape of a form-encoded v4 body). */
  body?: z.ZodType;
  /** Extra fields read beside `body` (shown as allOf). */
  bodyExtra?: z.ZodType;
  /** The v4 create/update convention: the body may also be `application/x-www-form-urlencoded`. */
  form?: boolean;
  /** Any body at all, stored as it came (inbound webhooks). */
  anyBody?: boolean;
  /** The body is application/x-www-form-urlencoded only (what Slack posts). */
  formOnly?: boolean;
  /** A list: the item schema of the envelope; adds the list query parameters. */
  list?: z.ZodType;
  /** Query parameters other than the list conventions. */
  query?: readonly QueryDoc[];
  success: readonly SuccessDoc[];
  errors: readonly ErrorStatus[];
  /** Errors in a shape of the route's own, with their schema; these statuses are not also in `errors`. */
  ownErrors?: readonly OwnErrorDoc[];
}

/** The routes one function serves, by operation name (the handler map's keys). */
export interface RouteContract<
  Fn extends string = string,
  Routes extends Record<string, RouteDeclaration> = Record<string, RouteDeclaration>,
> {
  fn: Fn;
  routes: Routes;
}

/**
 * Declares the routes of the function `fn` (functions/http/<fn in kebab case>.ts). The declaration
 * keeps its literal types (paths, statuses, schemas), from which the handler map's types derive.
 */
export function declareRoutes<const Fn extends string, const Routes extends Record<string, RouteDeclaration>>(
  fn: Fn,
  routes: Routes,
): RouteContract<Fn, Routes> {
  return { fn, routes };
}

// ---- the usual error statuses -----------------------------------------------------------------

export const READ_ERRORS: ErrorStatus[] = [401, 404];
export const LIST_ERRORS: ErrorStatus[] = [401, 'invalid'];
export const NESTED_LIST_ERRORS: ErrorStatus[] = [401, 404, 'invalid'];
/** A body is read: malformed JSON (400), too large (413), invalid or unknown reference (invalid). */
export const BODY_ERRORS: ErrorStatus[] = [400, 413, 'invalid'];

// ---- what a handler receives and answers, derived from the declaration -------------------------

/** The interface a path belongs to (lib/http/request.ts interfaceOf, at the type level). */
export type InterfaceOf<Path extends string> = Path extends '/api/v4' | `/api/v4/${string}` ? 'v4' : 'earlier';

/** `{id}` and `{subscriptionId}` of a path, as the request's params. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [Key in Name | keyof PathParams<Rest>]: string }
  : Record<never, string>;

/** The envelope of every list (docs/api.md#lists). */
export interface ListPage<Item> {
  data: Item[];
  has_more: boolean;
  total_count: number;
}

/** What `select` leaves of an object (the earlier interface only): its id and the attributes asked for. */
export type Selection<Item> = Partial<Item>;

/** The items of a list on an interface: on the earlier one `select` may cut them down. */
export type Listed<Item, Iface extends ApiInterface> = Iface extends 'v4' ? Item : Item | Selection<Item>;

interface WithHeaders {
  headers?: Record<string, string>;
}
export interface JsonReply<Status extends number, Body> extends WithHeaders {
  status: Status;
  body: Body;
  text?: undefined;
}
export interface EmptyReply<Status extends number> extends WithHeaders {
  status: Status;
  body?: undefined;
  text?: undefined;
}
export interface PageReply<Status extends number> extends WithHeaders {
  status: Status;
  body?: undefined;
  /** A body that is not JSON (an HTML page, an iCalendar feed), sent as it is with its content type. */
  text: { contentType: string; body: string };
}

type SuccessReply<Success> = Success extends { status: infer Status extends number; text: string }
  ? PageReply<Status>
  : Success extends { status: infer Status extends number; schema: infer Schema extends z.core.$ZodType }
    ? JsonReply<Status, z.input<Schema>> | (Success extends { html: true } ? PageReply<Status> : never)
    : Success extends { status: infer Status extends number }
      ? EmptyReply<Status>
      : never;

type OwnErrorReply<Route> = Route extends { ownErrors: readonly (infer Own)[] }
  ? Own extends { status: infer Status extends number; schema: infer Schema extends z.core.$ZodType }
    ? JsonReply<Status, z.input<Schema>>
    : never
  : never;

/** Every answer a route may give: its declared successes (a list envelope for a list) and its own errors. */
export type ReplyOf<Route extends RouteDeclaration> =
  | (Route extends { list: infer Item extends z.ZodType }
      ? JsonReply<200, ListPage<Listed<z.input<Item>, InterfaceOf<Route['path']>>>>
      : SuccessReply<Route['success'][number]>)
  | OwnErrorReply<Route>;

/** The request a route's handler receives: its path parameters and interface known from its path. */
export type RouteRequest<Route extends RouteDeclaration> = Omit<ApiRequest, 'params' | 'iface'> & {
  params: PathParams<Route['path']>;
  iface: InterfaceOf<Route['path']>;
};

/** A handler answers at once or later (the dispatcher awaits either); what it throws is the route's error either way. */
export type RouteHandlerOf<Route extends RouteDeclaration> = (request: RouteRequest<Route>) => ReplyOf<Route> | Promise<ReplyOf<Route>>;

/** One handler per declared route, named as the declaration names it: no more, no fewer. */
export type HandlersOf<Contract extends RouteContract> = {
  [Op in keyof Contract['routes']]: RouteHandlerOf<Contract['routes'][Op]>;
};

// The five standard operations on a collection (api-v4.md "Standard operations"): list, create,
// get, update and delete, declared with their usual statuses and words. An area's routes.ts spreads
// them into its declaration beside its own routes.
import type * as z from 'zod';
import { BODY_ERRORS, LIST_ERRORS, READ_ERRORS, type ErrorStatus } from './route-contract';

export type StandardOp = 'list' | 'create' | 'get' | 'update' | 'delete';

/** "Account admins only": who may write, when not everyone of the account may. */
export const ADMIN_ONLY = 'Account admins only (403 otherwise).';

export interface ResourceDoc<Item extends z.ZodType, Create extends z.ZodType | undefined, Update extends z.ZodType | undefined> {
  tag: string;
  /** Singular and plural nouns for the summaries. */
  noun: string;
  plural: string;
  /** The representation every operation answers (list items, created, read, updated). */
  item: Item;
  create?: Create;
  update?: Update;
  bodyExtra?: z.ZodType;
  /** Whether create/update bodies may be form-encoded (v4). */
  form: boolean;
  /** Who may write, when not everyone of the account may (a sentence for the descriptions). */
  writers?: { create?: string; update?: string; delete?: string };
  /** Extra error statuses per operation. */
  extra?: Partial<Record<'create' | 'update' | 'delete', ErrorStatus[]>>;
  descriptions?: Partial<Record<StandardOp, string>>;
}

interface Described {
  summary: string;
  description?: string;
  tag: string;
  errors: ErrorStatus[];
}

interface StandardRoutes<Path extends string, Item extends z.ZodType, Create, Update> {
  list: Described & { method: 'GET'; path: Path; list: Item; success: readonly [{ status: 200; description: string }] };
  create: Described & {
    method: 'POST';
    path: Path;
    body: Create;
    bodyExtra?: z.ZodType;
    form: boolean;
    success: readonly [{ status: 201; description: string; schema: Item }];
  };
  get: Described & { method: 'GET'; path: `${Path}/{id}`; success: readonly [{ status: 200; description: string; schema: Item }] };
  update: Described & {
    method: 'PUT';
    path: `${Path}/{id}`;
    body: Update;
    bodyExtra?: z.ZodType;
    form: boolean;
    success: readonly [{ status: 200; description: string; schema: Item }];
  };
  delete: Described & { method: 'DELETE'; path: `${Path}/{id}`; success: readonly [{ status: 204; description: string }] };
}

/** The operations a collection has: all five, less create and update when it takes no such body. */
type Available<Create, Update> = Exclude<
  StandardOp,
  (Create extends z.ZodType ? never : 'create') | (Update extends z.ZodType ? never : 'update')
>;

/** The operations' names in a function's handler map: `list`, or `earlierList` with the prefix `earlier`. */
type Named<Op extends string, Prefix extends string> = Prefix extends '' ? Op : `${Prefix}${Capitalize<Op>}`;

export type StandardRoutesOf<Path extends string, Item extends z.ZodType, Create, Update, Ops extends StandardOp, Prefix extends string> = {
  [Op in Ops as Named<Op, Prefix>]: StandardRoutes<Path, Item, Create, Update>[Op];
};

const ORDER: ErrorStatus[] = [400, 401, 403, 404, 405, 409, 413, 'invalid', 429];
function sorted(statuses: ErrorStatus[]): ErrorStatus[] {
  return ORDER.filter((status) => statuses.includes(status));
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/**
 * The standard operations on `collection` (and `collection/{id}`), in the order list, create, get,
 * update, delete. `only` picks some; `prefix` names them for the handler map (`earlier` gives
 * earlierList, earlierCreate, …). Create and update exist only when the doc gives their body.
 */
export function standardRoutes<
  const Path extends string,
  Item extends z.ZodType,
  Create extends z.ZodType | undefined = undefined,
  Update extends z.ZodType | undefined = undefined,
  const Ops extends StandardOp = Available<Create, Update>,
  const Prefix extends string = '',
>(
  collection: Path,
  doc: ResourceDoc<Item, Create, Update>,
  options: { only?: readonly Ops[]; prefix?: Prefix } = {},
): StandardRoutesOf<Path, Item, Create, Update, Ops & Available<Create, Update>, Prefix> {
  const has = (op: StandardOp) => !options.only || (options.only as readonly StandardOp[]).includes(op);
  const forbidden = (op: 'create' | 'update' | 'delete'): ErrorStatus[] => (doc.writers?.[op] ? [403] : []);
  const described = (op: StandardOp, ...parts: (string | undefined)[]) => {
    const text = [doc.descriptions?.[op], ...parts].filter(Boolean).join(' ');
    return text ? { description: text } : {};
  };
  const name = (op: StandardOp) => (options.prefix ? `${options.prefix}${op[0].toUpperCase()}${op.slice(1)}` : op);
  const routes: Record<string, unknown> = {};
  if (has('list')) {
    routes[name('list')] = {
      method: 'GET',
      path: collection,
      summary: `List ${doc.plural}`,
      tag: doc.tag,
      ...described('list'),
      list: doc.item,
      success: [{ status: 200, description: `A page of ${doc.plural}` }],
      errors: LIST_ERRORS,
    };
  }
  if (has('create') && doc.create) {
    routes[name('create')] = {
      method: 'POST',
      path: collection,
      summary: `Create ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('create', doc.writers?.create),
      body: doc.create,
      bodyExtra: doc.bodyExtra,
      form: doc.form,
      success: [{ status: 201, description: `The new ${doc.noun}`, schema: doc.item }],
      errors: sorted([401, ...forbidden('create'), ...BODY_ERRORS, ...(doc.extra?.create ?? [])]),
    };
  }
  if (has('get')) {
    routes[name('get')] = {
      method: 'GET',
      path: `${collection}/{id}`,
      summary: `Get ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('get'),
      success: [{ status: 200, description: `The ${doc.noun}`, schema: doc.item }],
      errors: READ_ERRORS,
    };
  }
  if (has('update') && doc.update) {
    routes[name('update')] = {
      method: 'PUT',
      path: `${collection}/{id}`,
      summary: `Update ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('update', 'Partial: only the fields sent change.', doc.writers?.update),
      body: doc.update,
      bodyExtra: doc.bodyExtra,
      form: doc.form,
      success: [{ status: 200, description: `The updated ${doc.noun}`, schema: doc.item }],
      errors: sorted([401, ...forbidden('update'), 404, 409, ...BODY_ERRORS, ...(doc.extra?.update ?? [])]),
    };
  }
  if (has('delete')) {
    routes[name('delete')] = {
      method: 'DELETE',
      path: `${collection}/{id}`,
      summary: `Delete ${article(doc.noun)}`,
      tag: doc.tag,
      ...described('delete', doc.writers?.delete),
      success: [{ status: 204, description: 'Deleted; no body' }],
      errors: sorted([401, ...forbidden('delete'), 404, ...(doc.extra?.delete ?? [])]),
    };
  }
  return routes as StandardRoutesOf<Path, Item, Create, Update, Ops & Available<Create, Update>, Prefix>;
}

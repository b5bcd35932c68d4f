// A route is declared once (lib/<area>/routes.ts) and its function's handler map is typed from that
// declaration: the compiler refuses a route without a handler, a handler without a route, and a
// handler whose answer does not fit the declared response. Each `@ts-expect-error` below is such a
// mistake: if the compiler ever accepted one, `npm run typecheck` (which `npm test` runs first)
// would fail on the unused directive. The handlers are built, never called: what is tested is the type.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { httpHandler } from '../../lib/api/handler';
import { created, noContent, ok } from '../../lib/http/replies';
import { declareRoutes, type ReplyOf, type RouteRequest } from '../../lib/http/route-contract';
import { standardRoutes } from '../../lib/http/standard-routes';

const Thing = z.strictObject({ id: z.string(), name: z.string() });
const createThing = z.object({ name: z.string() });
const thing = { id: 'thg_1', name: 'a thing' };

const thingRoutes = declareRoutes('things', {
  ...standardRoutes('/api/v4/things', { tag: 'Things', noun: 'thing', plural: 'things', item: Thing, create: createThing, form: true }),
  rename: {
    method: 'POST',
    path: '/api/v4/things/{id}/rename/{name}',
    summary: 'Rename a thing',
    tag: 'Things',
    success: [{ status: 200, description: 'The renamed thing', schema: Thing }],
    errors: [401, 404],
  },
});

const page = { data: [thing], has_more: false, total_count: 1 };
const handlers = {
  list: async () => ok(page),
  create: async () => created(thing),
  get: async () => ok(thing),
  delete: async () => noContent(),
  rename: async (req: RouteRequest<(typeof thingRoutes)['routes']['rename']>) => ok({ id: req.params.id, name: req.params.name }),
};

describe('a route declaration and its handlers', () => {
  it('compiles when every declared route has a handler that answers its schema', () => {
    expect(typeof httpHandler(thingRoutes, handlers)).toBe('function');
  });

  it('refuses a route without a handler', () => {
    const { rename: _rename, ...withoutRename } = handlers;
    // @ts-expect-error rename is declared and has no handler
    expect(() => httpHandler(thingRoutes, withoutRename)).toThrow('No handler rename for POST /api/v4/things/{id}/rename/{name}');
  });

  it('refuses a handler no route declares', () => {
    // @ts-expect-error archive is not a route of things
    httpHandler(thingRoutes, { ...handlers, archive: async () => ok(thing) });
  });

  it('refuses an answer that does not fit the declared schema', () => {
    // @ts-expect-error get answers a Thing, and this one lacks its name
    httpHandler(thingRoutes, { ...handlers, get: async () => ok({ id: 'thg_1' }) });
    // @ts-expect-error create answers 201, not 200
    httpHandler(thingRoutes, { ...handlers, create: async () => ok(thing) });
    // @ts-expect-error delete answers no body
    httpHandler(thingRoutes, { ...handlers, delete: async () => ok(thing) });
    // @ts-expect-error a list answers the envelope of its items
    httpHandler(thingRoutes, { ...handlers, list: async () => ok([thing]) });
  });

  it('refuses a path parameter the route does not have', () => {
    // @ts-expect-error get's path has {id}, no {token}
    httpHandler(thingRoutes, { ...handlers, get: async (req) => ok({ id: req.params.token, name: '' }) });
  });

  it('lets a select cut list items on the earlier interface only', () => {
    const earlier = declareRoutes(
      'earlierThings',
      standardRoutes('/thing', { tag: 'Things', noun: 'thing', plural: 'things', item: Thing, form: false }, { only: ['list'] }),
    );
    const selected = { data: [{ id: 'thg_1' }], has_more: false, total_count: 1 };
    expect(typeof httpHandler(earlier, { list: async () => ok(selected) })).toBe('function');
    // @ts-expect-error on v4 every item is whole
    httpHandler(thingRoutes, { ...handlers, list: async () => ok(selected) });
    const reply: ReplyOf<(typeof earlier)['routes']['list']> = ok(selected);
    expect(reply.status).toBe(200);
  });
});

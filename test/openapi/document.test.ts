// The OpenAPI document: valid OpenAPI 3.1 (checked by a real validator), one operation per route of
// the route table (each route's declaration is its entry, so none can lack one: the compiler sees to
// it), every schema a valid JSON Schema 2020-12 under a name, and served without credentials by the
// real local server.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ROUTES, routeKey, type Route } from '../../lib/api/route-table';
import { buildOpenApiDocument, openApiDocument } from '../../lib/openapi/document';
import { startService, type TestService } from '../support/runtime';
import { DocumentChecker } from './support';

// Built inside each test, so a document that cannot be built fails the tests by name, not the file's import.
let built: Record<string, any> | undefined;
const doc = () => (built ??= buildOpenApiDocument(ROUTES) as Record<string, any>);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

function operationsOf(doc: Record<string, any>): { method: string; path: string; operation: any }[] {
  return Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc()));
    expect(validator.version).toBe('3.1');
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('is refused by the validator when it is broken (the check is not vacuous)', async () => {
    const broken = structuredClone(doc());
    delete broken.paths['/health'].get.responses;
    broken.paths['/api/v4/alerts'].get.parameters.push({ name: 'x', in: 'body' });
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('has one operation per route of the route table, and none other', () => {
    const documented = operationsOf(doc()).map(({ method, path }) => `${method} ${path}`);
    expect(documented.sort()).toEqual(ROUTES.map(routeKey).sort());
    expect(new Set(documented).size).toBe(ROUTES.length);
  });

  it('fails to build when a schema it shows has no name, saying how to give one', () => {
    const unnamed: Route = {
      ...ROUTES.find((route) => routeKey(route) === 'GET /health')!,
      path: '/api/v4/unnamed_things',
      success: [{ status: 200, description: 'Something', schema: z.strictObject({ id: z.string() }) }],
    };
    expect(() => buildOpenApiDocument([...ROUTES, unnamed])).toThrow(/no name: documentNames.add/);
  });

  it('gives every operation a unique operationId, a tag, a success and the right security', () => {
    const ids = new Set<string>();
    for (const { method, path, operation } of operationsOf(doc())) {
      expect(ids.has(operation.operationId), operation.operationId).toBe(false);
      ids.add(operation.operationId);
      expect(operation.tags).toHaveLength(1);
      expect(
        // A success is a 2xx, or the redirect that sends a browser on (single sign-on's start and callback).
        Object.keys(operation.responses).some((status) => /^2\d\d$/.test(status) || status === '302'),
        `${method} ${path}`,
      ).toBe(true);
      const route = ROUTES.find((r) => r.method === method && r.path === path)!;
      if (route.public) expect(operation.security, `${method} ${path}`).toEqual([]);
      // Optional credentials: no requirement ({}) or any of the usual ones.
      else if (route.credentials === 'optional') {
        expect(operation.security, `${method} ${path}`).toEqual([{}, ...doc().security]);
        expect(operation.responses['401'], `${method} ${path}`).toBeDefined();
      } else if (route.credentials === 'scim') {
        // A SCIM token, and nothing else, authenticates there.
        expect(operation.security, `${method} ${path}`).toEqual([{ scimToken: [] }]);
        expect(operation.responses['401'], `${method} ${path}`).toBeDefined();
      } else {
        expect(operation.security, `${method} ${path}`).toBeUndefined();
        expect(operation.responses['401'], `${method} ${path}`).toBeDefined();
      }
    }
    expect(doc().security).toEqual([{ bearerAuth: [] }, { bareToken: [] }, { apiKeyId: [], apiKeySecret: [] }]);
  });

  it('answers validation failures with 422 and the v4 error body under /api/v4, 400 and the earlier body elsewhere', () => {
    for (const { path, operation } of operationsOf(doc())) {
      const errors = Object.entries(operation.responses as Record<string, any>).filter(([status]) => Number(status) >= 400);
      for (const [, response] of errors) {
        // One-click responses answer a page of their own (what came of the click), not an error body.
        if (path.startsWith('/public/respond/')) {
          expect(response.$ref, path).toBeUndefined();
          expect(response.content['application/json'].schema.$ref).toMatch(/ResponseView$/);
          continue;
        }
        // So does the page Slack's "Add to Slack" redirect lands on.
        if (path === '/public/slack/oauth') {
          expect(response.$ref, path).toBeUndefined();
          expect(response.content['application/json'].schema.$ref).toMatch(/SlackInstallOutcome$/);
          continue;
        }
        // And the page a refused single sign-on shows the browser (text/html, the reason in it).
        if (path === '/public/sso/callback') {
          expect(response.$ref, path).toBeUndefined();
          expect(Object.keys(response.content)).toEqual(['text/html']);
          continue;
        }
        // A voicemail link says in a line of text why it cannot be opened.
        if (path === '/public/voicemail/{token}') {
          expect(response.$ref, path).toBeUndefined();
          expect(Object.keys(response.content)).toEqual(['text/plain']);
          continue;
        }
        // SCIM answers in SCIM's error body (RFC 7644 §3.12), in SCIM's media type.
        if (path.startsWith('/scim/v2/')) {
          expect(response.content['application/scim+json'].schema.$ref, path).toBe('#/components/schemas/ScimError');
          continue;
        }
        // PagerDuty's drop-in answers in PagerDuty's shape, its own schema: no error body of ours.
        if (path === '/v2/enqueue') {
          expect(response.content['application/json'].schema.$ref).toBe('#/components/schemas/PagerDutyError');
          continue;
        }
        // And Opsgenie's in Opsgenie's.
        if (path.startsWith('/v2/alerts')) {
          expect(response.content['application/json'].schema.$ref).toBe('#/components/schemas/OpsgenieError');
          continue;
        }
        const name = String(response.$ref).split('/').pop()!;
        expect(name.endsWith(path.startsWith('/api/v4/') ? 'V4' : 'Earlier'), `${path} ${name}`).toBe(true);
      }
      // Outside /api/v4 only the password routes and Opsgenie's drop-in (its own 422) answer 422
      // (docs/api.md#authentication); every other validation is 400.
      if (!path.startsWith('/api/v4/') && !path.startsWith('/public/password_reset') && !path.startsWith('/v2/alerts'))
        expect(operation.responses['422'], path).toBeUndefined();
    }
    expect(doc().components.schemas.ErrorV4.required).toEqual(['code', 'errors']);
    expect(doc().components.schemas.ErrorEarlier.required).toEqual(['errors']);
  });

  it('gives list routes the list parameters, the envelope, and select on the earlier interface only', () => {
    const lists = ROUTES.filter((route) => route.list);
    expect(lists.length).toBeGreaterThan(15);
    for (const { method, path } of lists) {
      const key = `${method} ${path}`;
      const operation = doc().paths[path][method.toLowerCase()];
      const refs = operation.parameters.map((p: any) => p.$ref ?? p.name);
      for (const name of ['limit', 'offset', 'page', 'ops', 'direction', 'q', 'filters']) {
        expect(
          refs.some((r: string) => r.endsWith(`/${name}`) || r === name),
          `${key} ${name}`,
        ).toBe(true);
      }
      expect(
        refs.some((r: string) => r.endsWith('/select')),
        key,
      ).toBe(!path.startsWith('/api/v4/'));
      const envelope = doc().components.schemas[operation.responses['200'].content['application/json'].schema.$ref.split('/').pop()];
      expect(envelope.required).toEqual(['data', 'has_more', 'total_count']);
    }
  });

  it('takes form-encoded bodies on v4 creates and updates', () => {
    const create = doc().paths['/api/v4/alerts'].post.requestBody;
    expect(Object.keys(create.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(create.required).toBe(true);
    expect(Object.keys(doc().paths['/alert'].post.requestBody.content)).toEqual(['application/json']);
    expect(doc().paths['/api/v4/alerts/{id}'].put.requestBody.required).toBe(false);
  });

  it("describes request bodies with the areas' own schemas (required fields, enums, aliases)", () => {
    const create = doc().components.schemas.AlertCreateInput;
    expect(create.required).toEqual(['title', 'urgency']);
    expect(create.properties.urgency.enum).toEqual(['silent', 'low', 'medium', 'high', 'critical']);
    expect(create.properties.tags).toBeDefined();
    // A list of ids may be one string (form posts often send one).
    expect(create.properties.destination_team_ids.anyOf.map((s: any) => s.type)).toEqual(['array', 'string']);
    expect(doc().components.schemas.TeamCreateInput.required).toEqual(['name', 'member_account_user_ids', 'admin_account_user_ids']);
  });

  it('compiles every component schema as JSON Schema 2020-12 in strict mode', () => {
    const checker = new DocumentChecker(doc());
    const names = Object.keys(doc().components.schemas);
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) expect(() => checker.compileComponent(name), name).not.toThrow();
  });

  it('is built once and kept', () => {
    expect(openApiDocument(ROUTES)).toBe(openApiDocument(ROUTES));
  });
});

describe('GET /api/v4/openapi.json on the running service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers the document without credentials', async () => {
    const res = await service.anonymous.get('/api/v4/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(doc());
  });

  it('answers the same with credentials, even bad ones', async () => {
    const withKey = await service.admin.get('/api/v4/openapi.json');
    const withBadToken = await service.anonymous.get('/api/v4/openapi.json', { authorization: 'Bearer nonsense' });
    expect(withKey.status).toBe(200);
    expect(withBadToken.status).toBe(200);
    expect(withBadToken.body.openapi).toBe('3.1.0');
  });
});

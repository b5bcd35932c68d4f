// Hostile bodies through the real local server: nothing reaches the process's prototypes, and a
// body that would make the server walk billions of slots is refused at once.
import { describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';

let service: TestService;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

useService(async (started) => {
  service = started;
});

describe('hostile request bodies', () => {
  it('a form body with prototype keys plants nothing and lists keep answering', async () => {
    const res = await service.admin.post(
      '/api/v4/schedules',
      'name=Polluter&__proto__[polluted]=x&constructor[prototype][polluted]=x&meta[__proto__][polluted]=x',
      form,
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe('Polluter');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const list = await service.admin.get('/api/v4/schedules');
    expect(list.status).toBe(200);
    const health = await service.admin.get('/api/v4/account_users');
    expect(health.status).toBe(200);
  });

  it('a form key with a huge index is answered at once, and the server keeps serving', async () => {
    const started = Date.now();
    const v4 = await service.admin.post('/api/v4/schedules', 'name=x&a[4294967294]=1', form);
    const earlier = await service.admin.post('/alert', 'title=x&destination_ids[4294967294]=1', form);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(v4.status).toBe(422);
    expect(v4.body).toMatchObject({ code: 422, errors: [{ message: expect.stringMatching(/array index/) }] });
    expect(earlier.status).toBe(400);
    expect((await service.admin.get('/api/v4/schedules')).status).toBe(200);
  });

  it('JSON with -1e400 or a constructor key inside meta is a 4xx naming the field, never a 500', async () => {
    const bad = await service.admin.post('/api/v4/schedules', '{"name":"n","meta":{"x":-1e400}}', {
      'content-type': 'application/json',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toBe('meta.x must be a finite number');
    const sneaky = await service.admin.post(
      '/api/v4/schedules',
      '{"name":"kept","meta":{"constructor":{"prototype":{"polluted":1}},"ok":true},"__proto__":{"polluted":1}}',
      { 'content-type': 'application/json' },
    );
    expect(sneaky.status, sneaky.text).toBe(201);
    expect(sneaky.body.meta).toEqual({ ok: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

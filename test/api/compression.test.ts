// Answers that fit (issue 9): compressed when the client accepts it, on every route, and a window too
// large for a Lambda response refused with a suggestion instead of failing in API Gateway.
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useService, type TestService } from '../support/runtime';
import { createEvent, createSchedule, people } from '../teams/helpers';

let service: TestService;

useService(async (started) => {
  service = started;
});

/** A GET that sees the bytes as sent (fetch would decompress them). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${service.url}${path}`, { headers: { ...service.admin.headers, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

describe('compressed answers', () => {
  it('compresses answers over 1 KB with the coding the client prefers, and says so', async () => {
    await people(service.admin, 6, 'Compressed');
    const plain = await rawGet('/api/v4/account_users?limit=100', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.length).toBeGreaterThan(1024);

    const gzip = await rawGet('/api/v4/account_users?limit=100', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(plain.body.toString('utf8'));

    const br = await rawGet('/api/v4/account_users?limit=100', { 'accept-encoding': 'gzip;q=0.5, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(br.body.length).toBeLessThan(plain.body.length / 3);

    const refused = await rawGet('/api/v4/account_users?limit=100', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('leaves small answers as they are, and compresses the earlier interface too', async () => {
    const small = await rawGet('/api/v4/alerts?limit=1', { 'accept-encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const admin = (await service.admin.get('/api/v4/account_users')).body.data[0];
    for (let i = 0; i < 3; i++) {
      const res = await service.admin.post('/alert', { title: `Earlier ${i}`, destination_ids: [`usr_${admin.user_id}`] });
      expect(res.status, res.text).toBe(201);
    }
    const earlier = await rawGet('/alert?limit=100', { 'accept-encoding': 'gzip' });
    expect(earlier.status).toBe(200);
    expect(earlier.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(earlier.body).toString('utf8')).data.length).toBeGreaterThan(0);
    const error = await rawGet('/api/v4/alerts/nope', { 'accept-encoding': 'gzip' });
    expect(error.status).toBe(404);
    expect(JSON.parse(error.body.toString('utf8'))).toMatchObject({ code: 404 });
  });
});

describe('answers too large for a Lambda response', () => {
  it('a year of window_events over hourly events is sent compressed, and refused with a suggestion when it cannot be', async () => {
    const [person] = await people(service.admin, 1, 'Hourly');
    const schedule = await createSchedule(service.admin, 'Hourly');
    for (const layer of [1, 2, 3]) {
      await createEvent(service.admin, {
        start_datetime: '2026-01-01T00:00:00Z',
        end_datetime: '2026-01-01T00:30:00Z',
        time_zone: 'UTC',
        layer,
        repeat: true,
        frequency: 1,
        frequency_unit: 'hourly',
        account_user_ids: [person.id],
        schedule_ids: [schedule.id],
      });
    }
    const path = `/api/v4/schedule/${schedule.id}/window_events?start=2026-01-01T00:00:00Z&end=2027-01-01T00:00:00Z`;
    const compressed = await rawGet(path, { 'accept-encoding': 'gzip' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    const entries = JSON.parse(gunzipSync(compressed.body).toString('utf8')) as unknown[];
    expect(entries).toHaveLength(3 * 365 * 24);
    expect(compressed.body.length).toBeLessThan(1024 * 1024);

    const uncompressed = await rawGet(path, {});
    expect(uncompressed.status).toBe(422);
    const body = JSON.parse(uncompressed.body.toString('utf8'));
    expect(body.code).toBe(422);
    expect(body.errors[0].message).toMatch(/more than the 6\.3 MB a response may carry \(send Accept-Encoding: gzip or br/);
    expect(body.errors[0].message).toMatch(/ask for a shorter window \(start and end\)/);
  }, 60_000);
});

// Restart persistence is a property of the embedded store (DATA_DIR); an external endpoint keeps
// its own data, so this file runs only on the embedded emulators.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../support/runtime';

const external = Boolean(process.env.AWS_ENDPOINT_URL);
const dataDir = mkdtempSync(path.join(tmpdir(), 'oncall-data-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(external)('a restart on the same DATA_DIR', () => {
  it('keeps every object, the credentials and the signing secret, and does not bootstrap again', async () => {
    const options = { dataDir, tableName: 'oncall', bootstrap: { apiKey: 'k'.repeat(40) } };
    const first = await startService(options);
    expect(first.runtime.created).not.toBeNull();
    const created = await first.admin.post('/api/v4/account_users', {
      user_attributes: { name: 'Persisted', emails_attributes: [{ email: 'persisted@example.com' }] },
    });
    expect(created.status).toBe(201);
    const login = await first.anonymous.post('/public/login', { username: 'admin@example.com', password: 'correct horse battery staple' });
    await first.stop();

    const second = await startService(options);
    try {
      expect(second.runtime.created).toBeNull();
      const read = await second.admin.get(`/api/v4/account_users/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.user.name).toBe('Persisted');
      expect((await second.admin.get('/api/v4/account_users')).body.total_count).toBe(2);
      const withOldToken = await second.anonymous.get('/api/v4/account_users', { authorization: `Bearer ${login.body.token}` });
      expect(withOldToken.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

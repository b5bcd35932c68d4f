// Password hashes: scrypt at production's cost (N = 2^15, r = 8, p = 1), and verification that reads
// the cost from the stored hash, so a hash made at another cost (the tests' cheaper one, a future
// higher one) still verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_PASSWORD_HASH_COST, replaceDependencies } from '../../lib/dependencies';
import { hashPassword, verifyPassword } from '../../lib/auth/passwords';

describe('password hashes', () => {
  // Production's cost, set here: a service another file of this worker started (with the tests'
  // cheaper cost) may not have put it back yet.
  let restore: () => void;
  beforeAll(() => {
    restore = replaceDependencies({ passwordHashCost: PRODUCTION_PASSWORD_HASH_COST });
  });
  afterAll(() => restore());

  it("are scrypt at production's cost, with a fresh salt each time, and verify only the right password", async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse battery staple', first)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', first)).toBe(false);
    expect(await verifyPassword('anything', undefined)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$whatever')).toBe(false);
  });

  it('verify at the cost the hash names, whatever the cost new hashes use now', async () => {
    const restore = replaceDependencies({ passwordHashCost: 1 << 10 });
    let cheap: string;
    try {
      cheap = await hashPassword('s3cret enough');
    } finally {
      restore();
    }
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('s3cret enough', cheap)).toBe(true);
    expect(await verifyPassword('s3cret enougH', cheap)).toBe(false);
  });
});

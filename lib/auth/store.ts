// The signing secret of login tokens when JWT_SECRET is unset: generated once, kept in the table.
//   secret   SYSTEM / JWT_SECRET   {secret}
import { getItem, putNew } from '../store/items';

const SECRET_KEY = { pk: 'SYSTEM', sk: 'JWT_SECRET' };

export async function getStoredJwtSecret(): Promise<string | null> {
  const stored = await getItem(SECRET_KEY);
  return stored ? String(stored.secret) : null;
}

/** Keeps `secret` unless another process stored one first; false then. */
export async function insertJwtSecret(secret: string): Promise<boolean> {
  return putNew({ ...SECRET_KEY, secret });
}

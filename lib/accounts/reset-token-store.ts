// Data access for password reset tokens (lib/store/ACCESS-PATTERNS.md, "Platform entities"). Only
// the SHA-256 of a token is stored: the token itself exists in the e-mailed link alone.
//   reset token   PWRESET#<sha256(token)> / #   {user_id, generation, valid_until}, expires with TTL
import { deleteItem, getItem, putNew } from '../store/items';
import { TTL_ATTRIBUTE } from '../store/table';

export interface ResetTokenRecord {
  user_id: string;
  /** The user's password generation when the link was sent: a password change since voids it. */
  generation: number;
  /** Epoch milliseconds. */
  valid_until: number;
  created_at: string;
}

const tokenKey = (hash: string) => ({ pk: `PWRESET#${hash}`, sk: '#' });

function decode(item: Record<string, unknown>): ResetTokenRecord {
  return {
    user_id: String(item.user_id),
    generation: Number(item.generation ?? 0),
    valid_until: Number(item.valid_until),
    created_at: String(item.created_at),
  };
}

export async function insertResetToken(hash: string, record: ResetTokenRecord): Promise<void> {
  // The table's TTL removes the item some time after it expires (valid_until is what counts).
  const item = { ...tokenKey(hash), ...record, [TTL_ATTRIBUTE]: Math.ceil(record.valid_until / 1000) + 3600 };
  if (!(await putNew(item))) throw new Error('reset token collision');
}

export async function getResetToken(hash: string): Promise<ResetTokenRecord | null> {
  const item = await getItem(tokenKey(hash));
  return item ? decode(item) : null;
}

/** Deletes the token and returns what it held; null when another request spent it first. */
export async function spendResetToken(hash: string): Promise<ResetTokenRecord | null> {
  const item = await deleteItem(tokenKey(hash));
  return item ? decode(item) : null;
}

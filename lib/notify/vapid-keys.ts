// The VAPID key pair that signs Web Push requests (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY,
// else a P-256 pair generated once and kept in the table, exactly as the JWT secret is
// (lib/auth/jwt.ts): the first process to need one stores it with a conditional put, every other
// process reads that one. Browsers subscribe with the public key (GET /api/v4/web_push), so it
// must never change behind their back: a new pair would orphan every subscription.
import { config } from '../config';
import { generateVapidKeys } from './providers/web-push-protocol';
import { getStoredVapidKeys, insertVapidKeys } from './store';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

let cached: VapidKeys | undefined;

export async function vapidKeys(): Promise<VapidKeys> {
  if (cached) return cached;
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY } = config();
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY) return (cached = { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY });
  const stored = await getStoredVapidKeys();
  if (stored) return (cached = stored);
  const fresh = generateVapidKeys();
  if (await insertVapidKeys(fresh)) return (cached = fresh);
  return (cached = (await getStoredVapidKeys())!);
}

/** The local runtime and tests point the process at another table: forget the cached pair. */
export function resetVapidKeys(): void {
  cached = undefined;
}

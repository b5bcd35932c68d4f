// The VAPID key pair that signs Web Push requests (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY,
// else a P-256 pair generated once and kept in the table, exactly as the JWT secret is
// (lib/auth/jwt.ts): the first process to need one stores it with a conditional put, every other
// process reads that one. Browsers subscribe with the public key (GET /api/v4/web_push), so it
// must never change behind their back: a new pair would orphan every subscription.
import { config } from '../config';
import { onEnvironmentChange } from '../dependencies';
import { generateVapidKeys } from './providers/web-push-protocol';
import { getStoredVapidKeys, insertVapidKeys } from './store';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

let cached: VapidKeys | undefined;
// Another table (the local runtime, tests) has a pair of its own.
onEnvironmentChange(() => {
  cached = undefined;
});

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

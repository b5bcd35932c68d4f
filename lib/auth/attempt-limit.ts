// Limits on attempts that cost someone else something (a reset e-mail in their inbox) or guess a
// secret (a current password): a shared counter per bucket and fixed window, so every instance draws
// from the same allowance. Beyond it, 429 with Retry-After up to the end of the window (docs/api.md#errors).
import { now as clockNow } from '../clock';
import { TooManyRequests } from '../http/errors';
import { addAttempt } from './store';

export interface AttemptLimit {
  /** What is counted: `pwreset:email:<hash>`, `pwreset:ip:<address>`, … */
  bucket: string;
  limit: number;
  windowSeconds: number;
  /** The 429's message when this limit is used up. */
  message: string;
}

/** Counts one attempt against each limit in turn; the first one used up refuses the request. */
export async function takeAttempt(limits: AttemptLimit[], now = clockNow()): Promise<void> {
  const nowSeconds = now / 1000;
  for (const limit of limits) {
    const windowStart = Math.floor(nowSeconds / limit.windowSeconds) * limit.windowSeconds;
    if (!(await addAttempt(limit.bucket, windowStart, limit.windowSeconds, limit.limit))) {
      throw new TooManyRequests(windowStart + limit.windowSeconds - nowSeconds, limit.message);
    }
  }
}

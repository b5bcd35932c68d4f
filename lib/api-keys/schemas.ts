// Input schema of API keys (docs/api.md#authentication).
import * as z from 'zod';

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1),
  account_user_id: z.string().trim().min(1).optional(),
});

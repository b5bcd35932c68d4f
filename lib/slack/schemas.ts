// Input schemas of the Slack connection (docs/api.md#slack).
import * as z from 'zod';

/** A bot token (`xoxb-…`, or a rotating one `xoxe.xoxb-…`); a user token cannot post as the bot. */
const botToken = z
  .string()
  .trim()
  .max(512)
  .refine((value) => /^(xoxe\.)?xoxb-[A-Za-z0-9-]+$/.test(value), { message: 'must be a Slack bot token (xoxb-…)' });

/** The app's Signing Secret (Basic Information → App Credentials). */
const signingSecret = z
  .string()
  .trim()
  .refine((value) => /^[A-Za-z0-9]{16,128}$/.test(value), {
    message: "must be the Slack app's Signing Secret (Basic Information, App Credentials: letters and digits)",
  });

export const connectSlackInput = z.object({
  bot_token: botToken,
  signing_secret: signingSecret,
});

export type ConnectSlackInput = z.infer<typeof connectSlackInput>;

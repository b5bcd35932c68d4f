// A Slack stand-in on loopback, speaking the Web API's wire format as Slack does, for the service's
// real Slack client (lib/slack-client/web-api.ts, pointed here by SLACK_API_URL): POST /api/<method> with a form or JSON
// body and `Authorization: Bearer <token>`; answers HTTP 200 with `{ok: true, …}` or `{ok: false,
// error}` (invalid_auth, not_authed, channel_not_found, message_not_found, users_not_found,
// invalid_code, no_text, unknown_method, …) and, when a test asks, HTTP 429 with `Retry-After` and
// `{ok: false, error: "ratelimited"}`. It records every call, so tests assert on what Slack was
// asked; it serves response_url endpoints (recording what was posted there) and the "Add to Slack"
// authorize page (GET /oauth/v2/authorize: Allow sends the browser back to the redirect_uri with a
// code for oauth.v2.access, Cancel with error=access_denied); and it signs and sends interactions
// and slash commands to the service as Slack would (X-Slack-Signature).
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackCall {
  method: string;
  /** The arguments, parsed (`blocks` and other JSON-encoded fields decoded). */
  args: Record<string, any>;
  /** The bearer token, or the body's `token`; null when none was sent. */
  token: string | null;
  contentType: string;
  /** Wall time (ms) when it arrived. */
  at: number;
  /** What the stand-in answered. */
  status: number;
  answer: Record<string, unknown>;
}

export interface PostedMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: any[];
  /** Every version of the message, oldest first (chat.update appends). */
  history: { text: string; blocks: any[] }[];
}

export interface Workspace {
  teamId: string;
  teamName: string;
  botUserId: string;
  botToken: string;
  signingSecret: string;
}

export interface ResponseUrlPost {
  id: string;
  body: Record<string, any>;
  at: number;
}

type Failure = ({ error: string } | { retryAfter: number }) & {
  /** Only calls whose arguments match (other calls of the method pass). */
  when?: (args: Record<string, any>) => boolean;
};

export class SlackStandIn {
  url = '';
  /** Base for SLACK_API_URL. */
  apiUrl = '';
  readonly calls: SlackCall[] = [];
  /** Told of every call as it is answered (the benchmark times them). */
  readonly listeners: ((call: SlackCall) => void)[] = [];
  readonly responses: ResponseUrlPost[] = [];
  readonly workspaces: Workspace[] = [];
  /** Members by e-mail (lower case), per team. */
  readonly users = new Map<string, { id: string; teamId: string; email: string; name: string }>();
  readonly channels = new Set<string>();
  readonly messages = new Map<string, PostedMessage>();
  /** The OAuth app ("Add to Slack"). */
  readonly app = {
    clientId: '1234567890.0987654321',
    clientSecret: randomBytes(16).toString('hex'),
    signingSecret: randomBytes(16).toString('hex'),
  };
  private readonly codes = new Map<string, { workspace: Workspace; redirectUri: string }>();
  private readonly failures = new Map<string, Failure[]>();
  /** Where the admin on the authorize page installs the app (the workspace they are signed in to). */
  private installingInto: Workspace | null = null;
  /** The query of every authorize page the stand-in served. */
  readonly authorizeRequests: URLSearchParams[] = [];
  private server: http.Server | null = null;
  private sequence = 0;

  static async start(): Promise<SlackStandIn> {
    const standIn = new SlackStandIn();
    standIn.server = http.createServer((req, res) => standIn.handle(req, res));
    await new Promise<void>((resolve) => standIn.server!.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}`;
    standIn.apiUrl = `${standIn.url}/api/`;
    return standIn;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** A workspace with its bot (token `xoxb-…`) and the app's signing secret. */
  addWorkspace(name = 'Acme'): Workspace {
    const n = this.workspaces.length + 1;
    const workspace: Workspace = {
      teamId: `T${String(n).padStart(3, '0')}${randomBytes(3).toString('hex').toUpperCase()}`,
      teamName: name,
      botUserId: `UBOT${n}${randomBytes(2).toString('hex').toUpperCase()}`,
      botToken: `xoxb-${n}-${randomBytes(12).toString('hex')}`,
      signingSecret: randomBytes(16).toString('hex'),
    };
    this.workspaces.push(workspace);
    return workspace;
  }

  /** A member of a workspace, found by users.lookupByEmail. */
  addUser(workspace: Workspace, email: string, name = email.split('@')[0]): string {
    const id = `U${randomBytes(5).toString('hex').toUpperCase()}`;
    this.users.set(email.toLowerCase(), { id, teamId: workspace.teamId, email: email.toLowerCase(), name });
    return id;
  }

  addChannel(): string {
    const id = `C${randomBytes(5).toString('hex').toUpperCase()}`;
    this.channels.add(id);
    return id;
  }

  /** The next `count` calls of `method` fail as Slack would: `{ok: false, error}`, or HTTP 429 with Retry-After. */
  failNext(method: string, failure: Failure, count = 1): void {
    const queue = this.failures.get(method) ?? [];
    for (let i = 0; i < count; i++) queue.push(failure);
    this.failures.set(method, queue);
  }

  /** A code Slack's authorize page would hand back to `redirectUri` for `workspace`. */
  authorize(workspace: Workspace, redirectUri: string): string {
    const code = `code-${randomBytes(8).toString('hex')}`;
    this.codes.set(code, { workspace, redirectUri });
    return code;
  }

  /** The workspace the person on the authorize page is signed in to, which Allow installs into. */
  installInto(workspace: Workspace): void {
    this.installingInto = workspace;
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** The messages in a channel (a user id names their direct messages), oldest first. */
  messagesIn(channel: string): PostedMessage[] {
    const id = channel.startsWith('U') || channel.startsWith('W') ? this.dmChannelOf(channel) : channel;
    return [...this.messages.values()].filter((message) => message.channel === id);
  }

  /** The direct message channel of a user (Slack opens one on the first message). */
  dmChannelOf(userId: string): string {
    return `D${userId.slice(1)}`;
  }

  responseUrl(): string {
    return `${this.url}/respond/${randomBytes(6).toString('hex')}`;
  }

  responsesTo(url: string): ResponseUrlPost[] {
    const id = url.slice(url.lastIndexOf('/') + 1);
    return this.responses.filter((response) => response.id === id);
  }

  // ---- requests Slack sends to the service ------------------------------------------------------

  /** Signs a body as Slack does: v0= hex HMAC-SHA256 of `v0:<ts>:<body>`. */
  static sign(secret: string, timestamp: number, body: string): string {
    return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  }

  /** Posts a form to the service, signed with `secret` at `timestampSeconds` (default: now). */
  async send(
    serviceUrl: string,
    path: string,
    body: string,
    options: { secret: string; timestampSeconds?: number; signature?: string | null },
  ): Promise<{ status: number; text: string; body: any; ms: number }> {
    const timestamp = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    };
    const signature = options.signature === undefined ? SlackStandIn.sign(options.secret, timestamp, body) : options.signature;
    if (signature !== null) headers['x-slack-signature'] = signature;
    const started = performance.now();
    const res = await fetch(`${serviceUrl}${path}`, { method: 'POST', headers, body });
    const text = await res.text();
    const ms = performance.now() - started;
    return { status: res.status, text, body: parsedOrText(text), ms };
  }

  /** A block_actions payload: one button clicked by `userId` on a message in `channel`. */
  clickPayload(
    workspace: Workspace,
    options: { userId: string; actionId: string; value: string; channel?: string; messageTs?: string; actionTs?: string },
  ): { body: string; responseUrl: string; actionTs: string } {
    const responseUrl = this.responseUrl();
    const actionTs = options.actionTs ?? `${Math.floor(Date.now() / 1000)}.${String(++this.sequence).padStart(6, '0')}`;
    const channel = options.channel ?? this.dmChannelOf(options.userId);
    const payload = {
      type: 'block_actions',
      team: { id: workspace.teamId, domain: workspace.teamName.toLowerCase() },
      user: { id: options.userId, username: 'someone', team_id: workspace.teamId },
      api_app_id: 'A0STANDIN',
      token: 'deprecated-verification-token',
      container: { type: 'message', message_ts: options.messageTs ?? '1.000001', channel_id: channel, is_ephemeral: false },
      trigger_id: `${Date.now()}.${this.sequence}.${randomBytes(4).toString('hex')}`,
      channel: { id: channel, name: 'directmessage' },
      response_url: responseUrl,
      actions: [
        {
          action_id: options.actionId,
          block_id: 'alert_actions',
          text: { type: 'plain_text', text: options.actionId },
          value: options.value,
          type: 'button',
          action_ts: actionTs,
        },
      ],
    };
    return { body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), responseUrl, actionTs };
  }

  /** A slash command's form body. */
  commandBody(workspace: Workspace, options: { userId: string; text: string; command?: string }): { body: string; responseUrl: string } {
    const responseUrl = this.responseUrl();
    const body = new URLSearchParams({
      token: 'deprecated-verification-token',
      team_id: workspace.teamId,
      team_domain: workspace.teamName.toLowerCase(),
      channel_id: 'C0STANDIN',
      channel_name: 'general',
      user_id: options.userId,
      user_name: 'someone',
      command: options.command ?? '/oncall',
      text: options.text,
      api_app_id: 'A0STANDIN',
      response_url: responseUrl,
      trigger_id: `${Date.now()}.${++this.sequence}.${randomBytes(4).toString('hex')}`,
    }).toString();
    return { body, responseUrl };
  }

  // ---- the Web API --------------------------------------------------------------------------------

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').split('?')[0];
      if (path.startsWith('/respond/')) {
        const body = safeJson(raw);
        if (!body || typeof body !== 'object') {
          res.writeHead(400).end('invalid_payload');
          return;
        }
        this.responses.push({ id: path.slice('/respond/'.length), body, at: Date.now() });
        res.writeHead(200, { 'content-type': 'text/html' }).end('ok');
        return;
      }
      if (path === '/oauth/v2/authorize' && req.method === 'GET') {
        this.authorizePage(new URL(req.url ?? '', this.url).searchParams, res);
        return;
      }
      if (!path.startsWith('/api/') || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const method = path.slice('/api/'.length);
      const contentType = String(req.headers['content-type'] ?? '');
      const args = parseArgs(raw, contentType);
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? null;
      const token = bearer ?? (typeof args.token === 'string' ? args.token : null);
      const failure = this.takeFailure(method, args);
      let status = 200;
      let answer: Record<string, unknown>;
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (failure && 'retryAfter' in failure) {
        status = 429;
        headers['retry-after'] = String(failure.retryAfter);
        answer = { ok: false, error: 'ratelimited' };
      } else if (failure) {
        answer = { ok: false, error: failure.error };
      } else {
        answer = this.answer(method, args, token);
      }
      const call: SlackCall = { method, args, token, contentType, at: Date.now(), status, answer };
      this.calls.push(call);
      for (const listener of this.listeners) listener(call);
      res.writeHead(status, headers).end(JSON.stringify(answer));
    });
  }

  /** Slack's consent page, in short: the app's name and scopes, Allow and Cancel as links back to the redirect_uri. */
  private authorizePage(query: URLSearchParams, res: http.ServerResponse): void {
    this.authorizeRequests.push(query);
    const redirectUri = query.get('redirect_uri') ?? '';
    const workspace = this.installingInto;
    if (query.get('client_id') !== this.app.clientId || !/^https?:\/\//.test(redirectUri) || !workspace) {
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Error</title><h1>invalid_client_id</h1>');
      return;
    }
    const back = (params: Record<string, string>) => {
      const url = new URL(redirectUri);
      for (const [name, value] of Object.entries({ ...params, state: query.get('state') ?? '' })) url.searchParams.set(name, value);
      return escapeAttribute(url.toString());
    };
    const allow = back({ code: this.authorize(workspace, redirectUri) });
    const cancel = back({ error: 'access_denied' });
    const scopes = (query.get('scope') ?? '').split(',').filter(Boolean);
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack</title></head><body>` +
          `<h1>On-call is requesting permission to access the ${escapeAttribute(workspace.teamName)} Slack workspace</h1>` +
          `<ul>${scopes.map((scope) => `<li>${escapeAttribute(scope)}</li>`).join('')}</ul>` +
          `<p><a href="${allow}">Allow</a> <a href="${cancel}">Cancel</a></p></body></html>`,
      );
  }

  private takeFailure(method: string, args: Record<string, any>): Failure | undefined {
    const queue = this.failures.get(method) ?? [];
    const index = queue.findIndex((failure) => !failure.when || failure.when(args));
    return index < 0 ? undefined : queue.splice(index, 1)[0];
  }

  private workspaceOfToken(token: string | null): Workspace | null {
    return this.workspaces.find((w) => w.botToken === token) ?? null;
  }

  private nextTs(): string {
    return `${Math.floor(Date.now() / 1000)}.${String(++this.sequence).padStart(6, '0')}`;
  }

  private answer(method: string, args: Record<string, any>, token: string | null): Record<string, unknown> {
    if (method === 'oauth.v2.access') return this.oauthAccess(args);
    if (!token) return { ok: false, error: 'not_authed' };
    const workspace = this.workspaceOfToken(token);
    if (!workspace) return { ok: false, error: 'invalid_auth' };
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: `https://${workspace.teamName.toLowerCase()}.slack.com/`,
          team: workspace.teamName,
          user: 'oncall',
          team_id: workspace.teamId,
          user_id: workspace.botUserId,
          bot_id: `B${workspace.botUserId.slice(1)}`,
          is_enterprise_install: false,
        };
      case 'users.lookupByEmail': {
        const user = this.users.get(String(args.email ?? '').toLowerCase());
        if (!user || user.teamId !== workspace.teamId) return { ok: false, error: 'users_not_found' };
        return { ok: true, user: { id: user.id, team_id: user.teamId, name: user.name, profile: { email: user.email } } };
      }
      case 'chat.postMessage': {
        if (!args.text && !args.blocks) return { ok: false, error: 'no_text' };
        const channel = this.resolveChannel(String(args.channel ?? ''));
        if (!channel) return { ok: false, error: 'channel_not_found' };
        const ts = this.nextTs();
        const message: PostedMessage = { channel, ts, text: String(args.text ?? ''), blocks: args.blocks ?? [], history: [] };
        message.history.push({ text: message.text, blocks: message.blocks });
        this.messages.set(`${channel}/${ts}`, message);
        return { ok: true, channel, ts, message: { type: 'message', text: message.text, ts, user: workspace.botUserId, bot_id: 'B0' } };
      }
      case 'chat.update': {
        const channel = String(args.channel ?? '');
        if (!this.channels.has(channel) && !channel.startsWith('D')) return { ok: false, error: 'channel_not_found' };
        const message = this.messages.get(`${channel}/${args.ts}`);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = String(args.text ?? message.text);
        message.blocks = args.blocks ?? message.blocks;
        message.history.push({ text: message.text, blocks: message.blocks });
        return { ok: true, channel, ts: message.ts, text: message.text };
      }
      case 'chat.postEphemeral': {
        const channel = this.resolveChannel(String(args.channel ?? ''));
        if (!channel) return { ok: false, error: 'channel_not_found' };
        return { ok: true, message_ts: this.nextTs() };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  private resolveChannel(channel: string): string | null {
    if (this.channels.has(channel)) return channel;
    if (/^[UW][A-Z0-9]+$/.test(channel) && [...this.users.values()].some((u) => u.id === channel)) return this.dmChannelOf(channel);
    return null;
  }

  private oauthAccess(args: Record<string, any>): Record<string, unknown> {
    if (args.client_id !== this.app.clientId) return { ok: false, error: 'invalid_client_id' };
    if (args.client_secret !== this.app.clientSecret) return { ok: false, error: 'bad_client_secret' };
    const grant = this.codes.get(String(args.code ?? ''));
    if (!grant) return { ok: false, error: 'invalid_code' };
    if (grant.redirectUri !== args.redirect_uri) return { ok: false, error: 'bad_redirect_uri' };
    this.codes.delete(String(args.code));
    const { workspace } = grant;
    // From now on Slack signs this workspace's requests with the app's signing secret (this.app).
    return {
      ok: true,
      app_id: 'A0STANDIN',
      authed_user: { id: 'UINSTALLER' },
      scope: 'chat:write,chat:write.public,commands,users:read,users:read.email',
      token_type: 'bot',
      access_token: workspace.botToken,
      bot_user_id: workspace.botUserId,
      team: { id: workspace.teamId, name: workspace.teamName },
      enterprise: null,
      is_enterprise_install: false,
    };
  }
}

function parseArgs(raw: string, contentType: string): Record<string, any> {
  if (contentType.includes('application/json')) {
    try {
      return JSON.parse(raw) as Record<string, any>;
    } catch {
      return {};
    }
  }
  const args: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // Slack's clients (ours, its SDK) JSON-encode every value that is not a string, number or boolean (blocks, attachments).
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function parsedOrText(text: string): unknown {
  if (!text) return undefined;
  const parsed = safeJson(text);
  return parsed === text && !text.startsWith('"') ? text : parsed;
}

function safeJson(value: string): any {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The environment of a service that talks to this stand-in, with its Slack app ("Add to Slack"). */
export function slackAppEnv(standIn: SlackStandIn): Record<string, string> {
  return {
    SLACK_API_URL: standIn.apiUrl,
    SLACK_CLIENT_ID: standIn.app.clientId,
    SLACK_CLIENT_SECRET: standIn.app.clientSecret,
    SLACK_SIGNING_SECRET: standIn.app.signingSecret,
  };
}

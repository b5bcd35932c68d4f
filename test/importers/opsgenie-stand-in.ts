// An Opsgenie REST API v2 stand-in on loopback, serving an account from a fixture in Opsgenie's
// own JSON shapes: `Authorization: GenieKey <key>` (401 otherwise, with Opsgenie's error body),
// answers `{data, took, requestId}`, lists paged by `limit`/`offset` with `paging.next` (this
// stand-in pages by at most `pageSize`, smaller than Opsgenie's 100, so that paging is exercised),
// and a schedule's timeline rendered from the fixture by opsgenie-timeline.ts. It records every
// request, so tests assert on what was asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { finalTimeline, type OgOverride, type OgSchedule } from './opsgenie-timeline';

export interface OgUser {
  id: string;
  username: string;
  fullName: string;
  role: { id: string; name: string };
  timeZone?: string;
  contacts: { id: string; method: 'email' | 'sms' | 'voice' | 'mobile'; to: string; enabled: boolean }[];
}

export interface OgTeam {
  id: string;
  name: string;
  description?: string;
  members: { user: { id: string; username: string }; role: 'admin' | 'user' }[];
}

export interface OgEscalation {
  id: string;
  name: string;
  description?: string;
  ownerTeam?: { id: string; name: string };
  rules: {
    condition: 'if-not-acked' | 'if-not-closed';
    notifyType: string;
    delay: { timeAmount: number; timeUnit?: string };
    recipient: { type: string; id: string; name?: string; username?: string };
  }[];
  repeat?: { waitInterval: number; count: number; resetRecipientStates: boolean; closeAlertAfterAll: boolean };
}

export interface OgIntegration {
  id: string;
  name: string;
  type: string;
  enabled: boolean;
  teamId?: string;
  apiKey?: string;
  emailAddress?: string;
}

export interface OpsgenieAccount {
  users: OgUser[];
  teams: OgTeam[];
  schedules: OgSchedule[];
  overrides: Record<string, OgOverride[]>;
  escalations: OgEscalation[];
  integrations: OgIntegration[];
}

export interface OpsgenieRequest {
  path: string;
  query: Record<string, string>;
  authorization: string | null;
}

export class OpsgenieStandIn {
  url = '';
  readonly requests: OpsgenieRequest[] = [];
  private server: http.Server | null = null;

  constructor(
    public account: OpsgenieAccount,
    readonly apiKey: string,
    readonly pageSize = 3,
  ) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private send(res: http.ServerResponse, status: number, body: Record<string, unknown>): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...body, took: 0.01, requestId: randomUUID() }));
  }

  private page(res: http.ServerResponse, url: URL, items: unknown[]): void {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), this.pageSize);
    const data = items.slice(offset, offset + limit);
    const paging: Record<string, string> = {};
    const at = (o: number) => {
      const next = new URL(url);
      next.searchParams.set('offset', String(o));
      next.searchParams.set('limit', String(limit));
      return `${this.url}${next.pathname}${next.search}`;
    };
    if (offset + limit < items.length) paging.next = at(offset + limit);
    paging.first = at(0);
    this.send(res, 200, { data, paging, totalCount: items.length });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    const authorization = req.headers.authorization ?? null;
    this.requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), authorization });
    if (authorization !== `GenieKey ${this.apiKey}`) return this.send(res, 401, { message: 'Could not authenticate' });
    if (req.method !== 'GET') return this.send(res, 405, { message: 'Method not allowed' });
    const parts = url.pathname.split('/').filter(Boolean);
    const { account } = this;
    const notFound = () => this.send(res, 404, { message: 'Not found' });
    const names = new Map(account.users.map((u) => [u.id, u.fullName]));

    if (parts[0] !== 'v2') return notFound();
    const [, collection, id, sub] = parts;
    switch (collection) {
      case 'users': {
        if (!id)
          return this.page(
            res,
            url,
            account.users.map(({ contacts: _contacts, ...user }) => user),
          );
        const user = account.users.find((u) => u.id === id);
        if (!user) return notFound();
        if (sub === 'contacts') return this.send(res, 200, { data: user.contacts });
        return notFound();
      }
      case 'teams': {
        if (!id) return this.send(res, 200, { data: account.teams.map(({ members: _members, ...team }) => team) });
        const team = account.teams.find((t) => t.id === id);
        return team ? this.send(res, 200, { data: team }) : notFound();
      }
      case 'schedules': {
        if (!id) {
          const expand = url.searchParams.get('expand') === 'rotation';
          return this.page(
            res,
            url,
            account.schedules.map((s) => (expand ? s : { ...s, rotations: undefined })),
          );
        }
        const schedule = account.schedules.find((s) => s.id === id);
        if (!schedule) return notFound();
        const overrides = account.overrides[schedule.id] ?? [];
        if (sub === 'overrides') return this.page(res, url, overrides);
        if (sub === 'timeline') {
          const date = Date.parse(url.searchParams.get('date') ?? '');
          const interval = Number(url.searchParams.get('interval') ?? 1);
          const unit = url.searchParams.get('intervalUnit') ?? 'weeks';
          if (Number.isNaN(date) || !['days', 'weeks', 'months'].includes(unit)) {
            return this.send(res, 422, { message: 'date, interval and intervalUnit (days, weeks, months) must be valid' });
          }
          const days = unit === 'days' ? interval : unit === 'weeks' ? 7 * interval : 31 * interval;
          const end = date + days * 86_400_000;
          const rotations = finalTimeline(schedule, overrides, names, date, end);
          return this.send(res, 200, {
            data: {
              _parent: { id: schedule.id, name: schedule.name, enabled: schedule.enabled },
              startDate: new Date(date).toISOString(),
              endDate: new Date(end).toISOString(),
              finalTimeline: { rotations },
            },
          });
        }
        return notFound();
      }
      case 'escalations':
        return this.send(res, 200, { data: account.escalations });
      case 'integrations': {
        if (!id) return this.send(res, 200, { data: account.integrations.map(({ apiKey: _key, emailAddress: _email, ...rest }) => rest) });
        const integration = account.integrations.find((i) => i.id === id);
        return integration ? this.send(res, 200, { data: integration }) : notFound();
      }
      default:
        return notFound();
    }
  }
}

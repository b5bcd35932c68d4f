// A small HTTP client for tests: real requests over keep-alive sockets to the local server.

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string>,
  ) {}

  with(headers: Record<string, string>): ApiClient {
    return new ApiClient(this.baseUrl, { ...this.headers, ...headers });
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
    const init: RequestInit = { method, headers: { ...this.headers, ...headers } };
    if (body !== undefined) {
      if (typeof body === 'string') init.body = body;
      else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  /** Every object of a v4 list (`path` without limit and offset), read 100 at a time; fails on a page that is not a 200. */
  async everyPage<T = any>(path: string): Promise<T[]> {
    const all: T[] = [];
    const joiner = path.includes('?') ? '&' : '?';
    for (let offset = 0; ; offset += 100) {
      const res = await this.get<{ data: T[]; has_more: boolean }>(`${path}${joiner}limit=100&offset=${offset}`);
      if (res.status !== 200) throw new Error(`GET ${path} at offset ${offset}: ${res.status} ${res.text.slice(0, 300)}`);
      all.push(...res.body.data);
      if (!res.body.has_more) return all;
    }
  }
}

/** Creates an account user through the API and returns it with a client acting as that user. */
export async function createMember(
  admin: ApiClient,
  options: { name?: string; email?: string; roles?: Record<string, boolean> } = {},
): Promise<{ accountUser: any; client: ApiClient }> {
  const email = options.email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const created = await admin.post('/api/v4/account_users', {
    user_attributes: { name: options.name ?? 'Member', emails_attributes: [{ email }] },
    roles: options.roles,
  });
  if (created.status !== 201) throw new Error(`create account user: ${created.status} ${created.text}`);
  const key = await admin.post('/api/v4/api_keys', { name: 'test', account_user_id: created.body.id });
  if (key.status !== 201) throw new Error(`create key: ${key.status} ${key.text}`);
  return { accountUser: created.body, client: new ApiClient(admin.baseUrl, { authorization: `Bearer ${key.body.token}` }) };
}

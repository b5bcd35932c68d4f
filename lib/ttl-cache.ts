// A small in-process cache whose entries expire after a time to live: resolved credentials (the
// principal cache, AUTH_CACHE_SECONDS), integrations, routers, receivers and maintenance windows use
// it, so a hot read costs no round trip to the store. Every write that could change an answer drops
// the affected entries at once. The local runtime serves all functions from one process, so there the
// effect is immediate; deployed, another warm Lambda instance may keep a stale entry for at most the TTL.

interface Entry<V> {
  value: V;
  expires: number;
}

const MAX_ENTRIES = 10_000;

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly ttlMs: () => number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    const ttl = this.ttlMs();
    if (ttl <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + ttl });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

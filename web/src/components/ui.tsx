// Small shared pieces: page headings that take focus on navigation, notices, status badges, the
// copy button, and hooks for loading and polling data.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messagesOf } from '../api';

/** The page's h1. It takes focus when the page opens, so keyboard and screen-reader users start there. */
export function PageTitle({ children, actions }: { children: ComponentChildren; actions?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);
  return (
    <div class="page-title">
      <h1 tabIndex={-1} ref={ref}>
        {children}
      </h1>
      {actions && <div class="page-actions">{actions}</div>}
    </div>
  );
}

export function Notice({ kind, children, id }: { kind: 'error' | 'info' | 'success'; children: ComponentChildren; id?: string }) {
  return (
    <div id={id} class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function ErrorList({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Notice kind="error">
      {messagesOf(error).map((message) => (
        <p key={message}>{message}</p>
      ))}
    </Notice>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Badge({ kind, value }: { kind: 'status' | 'urgency' | 'tag' | 'heartbeat'; value: string }) {
  return <span class={`badge badge-${kind} badge-${kind}-${value.replace(/[^\w-]/g, '')}`}>{value}</span>;
}

/** Copies a value to the clipboard; says so (or that it could not) in a polite live region. */
export function CopyButton({ value, label = 'Copy', description }: { value: string; label?: string; description?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const statusId = useRef(`copy-${Math.random().toString(36).slice(2, 8)}`).current;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="button button-small" onClick={() => void copy()} aria-describedby={statusId} title={description}>
        {label}
      </button>
      <span id={statusId} class="copy-status" role="status" data-copied={state === 'copied' ? value : undefined}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the address and copy it' : ''}
      </span>
    </span>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
}

/**
 * Loads data when the dependencies change, and again every `pollMs` while the tab is visible.
 * A failed refresh keeps the data already shown and reports the error.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], pollMs?: number): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const value = await loadRef.current();
      if (mine !== generation.current) return;
      setData(value);
      setError(null);
    } catch (e) {
      if (mine === generation.current) setError(e);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    // The counter itself, not its value: the cleanup must void the loads started since, too.
    const loads = generation;
    setLoading(true);
    void reload();
    if (!pollMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, pollMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      loads.current++;
    };
    // The caller's keys decide when to load again (the rule cannot read a list passed in); reload is
    // stable, and a new poll interval restarts the timer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, pollMs, reload]);

  return { data, error, loading, reload };
}

export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Newer / Older between the pages of a list newest first; `goTo(null)` is the first page (no `page` in the address). */
export function Pager({
  label,
  page,
  lastPage,
  goTo,
}: {
  label: string;
  page: number;
  lastPage: number;
  goTo: (page: string | null) => void;
}) {
  if (lastPage <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="button button-small" disabled={page <= 1} onClick={() => goTo(page > 2 ? String(page - 1) : null)}>
        Newer
      </button>
      <span>
        Page {page} of {lastPage.toLocaleString('en-US')}
      </span>
      <button type="button" class="button button-small" disabled={page >= lastPage} onClick={() => goTo(String(page + 1))}>
        Older
      </button>
    </nav>
  );
}

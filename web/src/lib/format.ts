// Times and durations as people read them, in the viewer's time zone. Pure: no DOM.

/** The viewer's IANA time zone (the browser's). */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `UTC+01:00`-style offset of a zone at an instant. */
export function zoneOffsetLabel(at: Date, timeZone: string = viewerTimeZone()): string {
  const part = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return part === 'GMT' || !part ? 'UTC+00:00' : part.replace('GMT', 'UTC');
}

/** How long ago, compactly: `42 s`, `5 min`, `3 h`, `2 d`. */
export function age(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

const dateTime = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = dateTime.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', options);
    dateTime.set(key, f);
  }
  return f;
}

/** `Mon 23 Nov 2026, 09:00` in the viewer's zone. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return formatter('dt', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(
    date,
  );
}

/** `09:00` in the viewer's zone. */
export function formatTime(value: string | number | Date): string {
  return formatter('t', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(value));
}

/** `Mon 23 Nov` in the viewer's zone. */
export function formatDay(value: string | number | Date): string {
  return formatter('d', { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(value));
}

/** `23 Nov 2026` in the viewer's zone. */
export function formatDate(value: string | number | Date): string {
  return formatter('date', { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(value));
}

/** A local date-time for an `<input type="datetime-local">`: `2026-11-23T09:00`. */
export function toLocalInput(value: string | number | Date): string {
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The API's wall-clock form (`2026-11-23 09:00`) of a `datetime-local` value. */
export function localInputToWallClock(value: string): string {
  return value.replace('T', ' ').slice(0, 16);
}

/** The window_events form: a UTC string `YYYY-MM-DD HH:mm:ss`. */
export function toApiUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

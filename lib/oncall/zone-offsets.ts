import { DAY_MS, HOUR_MS, SECOND_MS } from './civil-calendar';

// Asking Intl for an offset costs about a microsecond and a luxon DateTime far more; a year of
// hourly shifts would pay that thousands of times. Instead each zone's offset transitions are
// found once per 32-day chunk (daily samples, then bisection to the second) and kept, so that
// UTC ↔ local conversions become a lookup in a handful of transitions.

export interface OffsetTransition {
  /** First instant (epoch ms) of the new offset. */
  at: number;
  before: number;
  after: number;
}

interface Chunk {
  /** Offset in force just before the chunk begins. */
  before: number;
  transitions: OffsetTransition[];
}

const CHUNK_MS = 32 * DAY_MS;
// Wider than any real offset (±14 h) or offset change, so a local time's candidate transitions all
// lie within this distance of it.
const LOCAL_REACH_MS = 30 * HOUR_MS;

function parseLongOffset(formatted: string): number {
  const at = formatted.lastIndexOf('GMT');
  const text = at < 0 ? '' : formatted.slice(at + 3);
  if (text === '') return 0;
  const sign = text[0] === '-' || text[0] === '\u2212' ? -1 : 1;
  const [hours, minutes = '0', seconds = '0'] = text.slice(1).split(':');
  return sign * ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * SECOND_MS;
}

export class ZoneOffsets {
  private readonly formatter: Intl.DateTimeFormat;
  private readonly chunks = new Map<number, Chunk>();
  private lastChunkIndex = Number.NaN;
  private lastChunk: Chunk | undefined;

  constructor(readonly zone: string) {
    this.formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  }

  /** Offset (ms, local − UTC) in force at a UTC instant. */
  offsetAt(utc: number): number {
    const index = Math.floor(utc / CHUNK_MS);
    // A lone instant (an event's first start, years back) is not worth scanning a whole chunk for.
    if (index !== this.lastChunkIndex && !this.chunks.has(index)) return this.intlOffset(utc);
    const chunk = this.chunkAt(index);
    let offset = chunk.before;
    for (const transition of chunk.transitions) {
      if (utc < transition.at) break;
      offset = transition.after;
    }
    return offset;
  }

  /** Transitions with `at` in [from, to), oldest first. */
  transitionsBetween(from: number, to: number): OffsetTransition[] {
    const found: OffsetTransition[] = [];
    const last = Math.floor((to - 1) / CHUNK_MS);
    for (let index = Math.floor(from / CHUNK_MS); index <= last; index++) {
      for (const transition of this.chunkAt(index).transitions) {
        if (transition.at >= from && transition.at < to) found.push(transition);
      }
    }
    return found;
  }

  /**
   * Wall-clock reading (local ms) → UTC, with the contract's rules: a time in a spring-forward gap
   * takes the offset in force before the gap (02:30 → 03:30), a time that exists twice is the first.
   */
  localToUtc(local: number): number {
    return this.converter(local, local).toUtc(local);
  }

  /** A converter specialised for local times in [localFrom, localTo]; others still convert correctly. */
  converter(localFrom: number, localTo: number): LocalTimeConverter {
    const windowFrom = localFrom - LOCAL_REACH_MS;
    const transitions = this.transitionsBetween(windowFrom, localTo + LOCAL_REACH_MS);
    const offsets = [this.offsetAt(windowFrom)];
    // Both rules reduce to one threshold per transition: before t + max(before, after) on the wall
    // clock the old offset applies (covering the gap and the first pass of a repeated hour).
    const thresholds: number[] = [];
    for (const transition of transitions) {
      thresholds.push(transition.at + Math.max(transition.before, transition.after));
      offsets.push(transition.after);
    }
    return new LocalTimeConverter(this, localFrom, localTo, thresholds, offsets);
  }

  private chunkAt(index: number): Chunk {
    if (index === this.lastChunkIndex && this.lastChunk) return this.lastChunk;
    let chunk = this.chunks.get(index);
    if (!chunk) {
      chunk = this.scanChunk(index);
      this.chunks.set(index, chunk);
    }
    this.lastChunkIndex = index;
    this.lastChunk = chunk;
    return chunk;
  }

  private intlOffset(utc: number): number {
    return parseLongOffset(this.formatter.format(utc));
  }

  // Samples sit one second before each day boundary, so a transition exactly on the chunk's first
  // instant is still seen inside this chunk and one on the next chunk's first instant is not.
  private scanChunk(index: number): Chunk {
    const chunkStart = index * CHUNK_MS;
    let previousAt = chunkStart - SECOND_MS;
    let previousOffset = this.intlOffset(previousAt);
    const chunk: Chunk = { before: previousOffset, transitions: [] };
    for (let sampleAt = chunkStart + DAY_MS - SECOND_MS; sampleAt < chunkStart + CHUNK_MS; sampleAt += DAY_MS) {
      const sampleOffset = this.intlOffset(sampleAt);
      let low = previousAt;
      let lowOffset = previousOffset;
      // More than one change between two samples is handled one change at a time.
      for (let guard = 0; lowOffset !== sampleOffset && guard < 8; guard++) {
        let high = sampleAt;
        while (high - low > SECOND_MS) {
          const middle = low + Math.floor((high - low) / (2 * SECOND_MS)) * SECOND_MS;
          if (this.intlOffset(middle) === lowOffset) low = middle;
          else high = middle;
        }
        const after = this.intlOffset(high);
        chunk.transitions.push({ at: high, before: lowOffset, after });
        low = high;
        lowOffset = after;
      }
      previousAt = sampleAt;
      previousOffset = sampleOffset;
    }
    return chunk;
  }
}

export class LocalTimeConverter {
  constructor(
    private readonly zone: ZoneOffsets,
    private readonly localFrom: number,
    private readonly localTo: number,
    private readonly thresholds: number[],
    private readonly offsets: number[],
  ) {}

  toUtc(local: number): number {
    if (local < this.localFrom || local > this.localTo) return this.zone.localToUtc(local);
    const thresholds = this.thresholds;
    let low = 0;
    let high = thresholds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (thresholds[middle] <= local) low = middle + 1;
      else high = middle;
    }
    return local - this.offsets[low];
  }
}

const byCanonicalName = new Map<string, ZoneOffsets>();
const bySpelling = new Map<string, ZoneOffsets>();

/**
 * Shared per zone, so transitions found for one request serve the next ones. Clients spell a zone in
 * any case and by its aliases (`europe/berlin`); each spelling leads to the one engine of its
 * canonical zone, and the spellings kept are bounded.
 */
export function zoneOffsets(zone: string): ZoneOffsets {
  let offsets = bySpelling.get(zone);
  if (!offsets) {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    offsets = byCanonicalName.get(canonical);
    if (!offsets) {
      offsets = new ZoneOffsets(canonical);
      byCanonicalName.set(canonical, offsets);
    }
    if (bySpelling.size >= 1000) bySpelling.clear();
    bySpelling.set(zone, offsets);
  }
  return offsets;
}

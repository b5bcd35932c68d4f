// The HTTP part the importers' API stand-ins share: a server on loopback that answers JSON from a
// route function and records every request, so a test can assert what the importer asked for.
import http from 'node:http';
import { DateTime } from 'luxon';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export interface StandInAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface LoopbackJsonServer {
  /** Base URL without a trailing slash (`http://127.0.0.1:PORT`). */
  url: string;
  readonly requests: StandInRequest[];
  close(): Promise<void>;
}

export async function startLoopbackJsonServer(
  route: (request: StandInRequest, baseUrl: string) => StandInAnswer,
): Promise<LoopbackJsonServer> {
  const requests: StandInRequest[] = [];
  let baseUrl = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', baseUrl);
    const request: StandInRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers };
    requests.push(request);
    let answer: StandInAnswer;
    try {
      answer = route(request, baseUrl);
    } catch (error) {
      answer = { status: 500, body: { error: String(error) } };
    }
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...answer.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Merges [start, end) pieces that touch and name the same people; drops empty ones. */
export function mergeTouching<T extends { start: number; end: number; who: string[] }>(pieces: T[]): T[] {
  const merged: T[] = [];
  for (const piece of pieces) {
    if (piece.end <= piece.start) continue;
    const last = merged.at(-1);
    if (last && last.end === piece.start && last.who.join() === piece.who.join()) last.end = piece.end;
    else merged.push({ ...piece });
  }
  return merged;
}

/**
 * Layers combined as PagerDuty and Grafana OnCall both do: at each instant an override decides if
 * one covers it, else the highest layer with somebody on call, else nobody. Layers lowest first.
 */
export function combineByPrecedence(
  layers: { start: number; end: number; who: string[] }[][],
  overrides: { start: number; end: number; who: string[] }[],
  from: number,
  to: number,
): { start: number; end: number; who: string[] }[] {
  const cuts = new Set<number>([from, to]);
  for (const piece of [...layers.flat(), ...overrides]) {
    if (piece.start > from && piece.start < to) cuts.add(piece.start);
    if (piece.end > from && piece.end < to) cuts.add(piece.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const result: { start: number; end: number; who: string[] }[] = [];
  for (let i = 0; i + 1 < points.length; i += 1) {
    const [start, end] = [points[i], points[i + 1]];
    const covers = (p: { start: number; end: number }) => p.start <= start && p.end >= end;
    const override = overrides.filter(covers).at(-1);
    let who = override ? [...override.who].sort() : [];
    if (!override) {
      for (let level = layers.length - 1; level >= 0 && who.length === 0; level -= 1) {
        who = [...new Set(layers[level].filter(covers).flatMap((p) => p.who))].sort();
      }
    }
    result.push({ start, end, who });
  }
  return mergeTouching(result);
}

/**
 * `start` + `seconds` read on the wall clock of `zone` (18:00 + 14 h is 08:00 the next morning
 * even across a change of clocks), as both sources' occurrences and restrictions last.
 */
export function plusOnWallClock(start: number, seconds: number, zone: string): number {
  const local = DateTime.fromMillis(start, { zone });
  const wall = DateTime.fromObject(local.toObject(), { zone: 'utc' }).plus({ seconds });
  const { year, month, day, hour, minute, second } = wall.toObject();
  return DateTime.fromObject({ year, month, day, hour, minute, second }, { zone }).toMillis();
}

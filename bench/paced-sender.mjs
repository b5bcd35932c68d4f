// A sender on a worker thread of its own that posts at a fixed pace (not as fast as it can): request
// i is sent at start + i / perSecond, with at most `concurrency` in flight (a request that would
// pass the cap waits, and the achieved pace is reported). Each request's scheduled offset, status
// and Retry-After come back, so the rate limiter's decisions can be counted per (scaled) minute.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const { url, perSecond, count, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);

function post(i) {
  const body = JSON.stringify({ event_type: 'create', id: `paced-${i}`, title: `Paced ${i}`, urgency: 'low' });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }));
      },
    );
    req.on('error', () => resolve({ status: 0, retryAfter: 0 }));
    req.end(body);
  });
}

const offsets = new Float64Array(count);
const statuses = new Uint16Array(count);
const retryAfters = new Float64Array(count);
const inflight = new Set();
const start = performance.now();
for (let i = 0; i < count; i++) {
  const due = start + (i / perSecond) * 1000;
  const wait = due - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  while (inflight.size >= concurrency) await Promise.race(inflight);
  offsets[i] = performance.now() - start;
  const pending = post(i).then((result) => {
    statuses[i] = result.status;
    retryAfters[i] = result.retryAfter;
    inflight.delete(pending);
  });
  inflight.add(pending);
}
await Promise.all(inflight);
agent.destroy();
parentPort.postMessage({ offsets, statuses, retryAfters, seconds: (performance.now() - start) / 1000 });

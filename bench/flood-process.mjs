// A paced HTTP sender in a process of its own (bench/limits.ts: account A's flood), so the flood's
// client does not share the server's process, as a flooding client on another machine would not.
// Arguments: a JSON object {url, path, token, perSecond, count, concurrency}; prints {statuses}.
import http from 'node:http';

const { url, path, token, perSecond, count, concurrency } = JSON.parse(process.argv[2]);
const base = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function get() {
  return new Promise((resolve) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method: 'GET', path, agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

const statuses = new Array(count);
const startedAt = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const wait = startedAt + (i * 1000) / perSecond - Date.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      statuses[i] = await get();
    }
  }),
);
agent.destroy();
process.stdout.write(JSON.stringify({ statuses }));

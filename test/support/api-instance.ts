// A second instance of the API in a process of its own, over the table and queues of the service that
// started it (the parent's environment: TABLE_NAME, the emulators' endpoints, the queue URLs), as a
// second warm Lambda would be: its own in-process caches and leases, the same table. Prints
// `READY <url>` once it serves. Started by startApiInstance below.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ApiInstance {
  url: string;
  stop(): void;
}

/** Starts the second instance with the parent's environment plus `env`; resolves once it serves. */
export function startApiInstance(env: Record<string, string> = {}): Promise<ApiInstance> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, ...env, API_INSTANCE_CHILD: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const ready = /READY (\S+)/.exec(out);
      if (ready) resolve({ url: ready[1], stop });
    });
    child.once('exit', (code) => reject(new Error(`the second instance exited with ${code}: ${out}`)));
  });
}

if (process.env.API_INSTANCE_CHILD === 'true') {
  const { startApi } = await import('../../infra/local/api-gateway');
  const api = await startApi({ host: '127.0.0.1', port: 0 });
  console.log(`READY ${api.url}`);
}

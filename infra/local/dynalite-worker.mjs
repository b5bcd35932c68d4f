// Runs dynalite in a worker thread of the local runtime's process: the emulator is CPU-bound
// JavaScript, and on its own thread it no longer competes with the functions for one core.
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';

const server = dynalite({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.keepAliveTimeout = 65_000;
server.once('error', (error) => parentPort.postMessage({ type: 'error', message: String(error) }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'ready', port: server.address().port }));

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  // dynalite's close also closes its LevelDB store (flushing it to the folder) once every
  // connection is gone, so idle keep-alive sockets are dropped right away.
  server.close(() => parentPort.postMessage({ type: 'stopped' }));
  server.closeAllConnections();
});

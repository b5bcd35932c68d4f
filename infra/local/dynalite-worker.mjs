// Runs dynalite in a worker thread of the local runtime's process: the emulator is CPU-bound
// JavaScript, and on its own thread it no longer competes with the functions for one core.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * LevelDB options for the table on disk. LevelDB memory-maps every table file it keeps open (up to
 * 1 000 by default), and each file's touched pages count in the process's RSS: the store grows by
 * ~200 KB per paged alert, so RSS grew with every alert ever written (1.5 GB after 3 000, 4 GB
 * after 10 000). With the fewest open files LevelDB allows (74: 64 table files of 2 MB), what is
 * mapped is bounded; a table file needed again is reopened from the page cache.
 */
const LEVELDB_OPTIONS = { maxOpenFiles: 74 };

// dynalite opens its store with `new Level(path, { valueEncoding })` and takes no LevelDB options:
// its `level` module is given a Level that adds ours before dynalite is loaded.
const dynaliteRequire = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const level = dynaliteRequire('level');
const { Level } = level;
/** The options the store was opened with (reported with the thread's memory: tests check the hook took). */
let opened = null;
/** The store itself: its native memory is reported with the thread's (memtables, block cache, iterators' pins). */
const stores = new Set();
level.Level = class extends Level {
  constructor(location, options) {
    opened = { ...options, ...LEVELDB_OPTIONS };
    super(location, opened);
    stores.add(this);
  }
};
const { default: dynalite } = await import('dynalite');

const server = dynalite({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.keepAliveTimeout = 65_000;
server.once('error', (error) => parentPort.postMessage({ type: 'error', message: String(error) }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'ready', port: server.address().port }));

/** Memtables (the current one and any still pinned by open iterators) and the block cache, in bytes; null in memory or before the store opens. */
function leveldbMemory() {
  const store = [...stores].find((candidate) => candidate.status === 'open');
  if (!store) return null;
  try {
    return Number(store.getProperty('leveldb.approximate-memory-usage'));
  } catch {
    return null;
  }
}

parentPort.on('message', (message) => {
  // The thread's own heap (and its external and array-buffer memory): what the runtime reports
  // for the emulator, apart from the functions' heap on the main thread.
  if (message === 'memory') {
    parentPort.postMessage({ type: 'memory', usage: process.memoryUsage(), leveldb: opened, leveldbBytes: leveldbMemory() });
    return;
  }
  if (message !== 'stop') return;
  // dynalite's close also closes its LevelDB store (flushing it to the folder) once every
  // connection is gone, so idle keep-alive sockets are dropped right away.
  server.close(() => parentPort.postMessage({ type: 'stopped' }));
  server.closeAllConnections();
});

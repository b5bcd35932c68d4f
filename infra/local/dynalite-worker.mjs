// Runs dynalite in a worker thread of the local runtime's process: the emulator is CPU-bound
// JavaScript, and on its own thread it no longer competes with the functions for one core.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * LevelDB options for the table on disk. LevelDB memory-maps every table file it keeps open (up to
 * 1 000 by default), and each file's touched pages count in the process's RSS. With the fewest open
 * files LevelDB allows (74: 64 table files of 2 MB), what is mapped is bounded; a table file needed
 * again is reopened from the page cache.
 */
const LEVELDB_OPTIONS = { maxOpenFiles: 74 };

/**
 * dynalite reads every Query, Scan and table listing through a stream over a LevelDB iterator and,
 * when the stream ends or is dropped at its Limit, ends the iterator with `iterator.return()`, the
 * async-iterator protocol's method. abstract-level's iterators have no `return` (they end with
 * `close()`), so dynalite never closed one: each stayed in its store's open resources for good and,
 * on disk, kept the LevelDB snapshot it began on, its memtable and table files included. A replaced
 * memtable (4 MB) was freed only when the last iterator on it closed, so never, and a table file an
 * iterator had read stayed open and mapped past maxOpenFiles: the process's anonymous and
 * file-backed memory grew with every write (1.5 GB after 3 000 paged alerts, 4 GB after 10 000),
 * while LevelDB's own figure (approximate-memory-usage: the live memtables and the block cache)
 * stayed small.
 * Giving each iterator the `return` dynalite calls closes it where dynalite meant it to.
 * `workerData.closeIterators === false` keeps dynalite's behaviour (the memory benchmark's baseline).
 */
const closeIterators = workerData.closeIterators !== false;

/** Iterators opened and not yet closed, over every store of this thread (reported with its memory; tests check none is left). */
let openIterators = 0;
const isIterator = (resource) => typeof resource.next === 'function' && typeof resource.close === 'function';

function endedByReturn(iterator) {
  iterator.return = async () => {
    await iterator.close();
    return { done: true, value: undefined };
  };
  return iterator;
}

/** The options the store on disk was opened with (reported with the thread's memory: tests check the hook took). */
let opened = null;
/** The stores on disk: their native memory is reported with the thread's (live memtables, block cache). */
const stores = new Set();

/**
 * The store class dynalite makes, with iterators it can end and a count of those still open; a
 * store on disk (`new Level(path, options)`) is also given our LevelDB options.
 */
function withClosableIterators(Store, { onDisk }) {
  return class extends Store {
    constructor(...args) {
      if (onDisk) args[1] = opened = { ...args[1], ...LEVELDB_OPTIONS };
      super(...args);
      if (onDisk) stores.add(this);
    }
    iterator(options) {
      const iterator = super.iterator(options);
      return closeIterators ? endedByReturn(iterator) : iterator;
    }
    keys(options) {
      const iterator = super.keys(options);
      return closeIterators ? endedByReturn(iterator) : iterator;
    }
    values(options) {
      const iterator = super.values(options);
      return closeIterators ? endedByReturn(iterator) : iterator;
    }
    attachResource(resource) {
      if (isIterator(resource)) openIterators++;
      super.attachResource(resource);
    }
    detachResource(resource) {
      if (isIterator(resource)) openIterators--;
      super.detachResource(resource);
    }
  };
}

// dynalite opens its store with `new Level(path, { valueEncoding })` or `new MemoryLevel(…)` and
// takes no LevelDB options: its `level` and `memory-level` modules are given these classes before
// dynalite is loaded.
const dynaliteRequire = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const level = dynaliteRequire('level');
level.Level = withClosableIterators(level.Level, { onDisk: true });
const memoryLevel = dynaliteRequire('memory-level');
memoryLevel.MemoryLevel = withClosableIterators(memoryLevel.MemoryLevel, { onDisk: false });
const { default: dynalite } = await import('dynalite');

const server = dynalite({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.keepAliveTimeout = 65_000;
server.once('error', (error) => parentPort.postMessage({ type: 'error', message: String(error) }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'ready', port: server.address().port }));

/** The live memtables and the block cache, in bytes (not a memtable kept only by an open iterator); null in memory or before the store opens. */
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
    parentPort.postMessage({ type: 'memory', usage: process.memoryUsage(), leveldb: opened, leveldbBytes: leveldbMemory(), openIterators });
    return;
  }
  if (message !== 'stop') return;
  // dynalite's close also closes its LevelDB store (flushing it to the folder) once every
  // connection is gone, so idle keep-alive sockets are dropped right away.
  server.close(() => parentPort.postMessage({ type: 'stopped' }));
  server.closeAllConnections();
});

// Runs dynalite in a worker thread of the local runtime's process: the emulator is CPU-bound
// JavaScript, and on its own thread it no longer competes with the functions for one core.
import { EventEmitter } from 'node:events';
import { TextEncoder } from 'node:util';
import { createRequire } from 'node:module';
import { setImmediate } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import { expressionParses, keepParses } from './expression-cache.mjs';

/**
 * LevelDB options for the table on disk. LevelDB memory-maps every table file it keeps open (up to
 * 1 000 by default), and each file's touched pages count in the process's RSS. With the fewest open
 * files LevelDB allows (74: 64 table files of 2 MB), what is mapped is bounded; a table file needed
 * again is reopened from the page cache.
 * The write buffer (the memtable filled before LevelDB writes it out as a table file) is 16 MiB
 * instead of 4: an alert's life to its page writes ~30 KB to LevelDB (its items, written again at
 * each update, with their index entries: 104 MB over a throughput run of ~3 400 alerts), so 4 MiB
 * was a table file written and compacted every ~140 alerts, by LevelDB's threads, on a two-core
 * machine whose cores the functions' thread and the emulator's already share. It costs up to two
 * buffers of memory. The throughput and memory figures: docs/ARCHITECTURE.md ("The embedded DynamoDB
 * writes to disk through a 16 MiB buffer").
 */
const LEVELDB_OPTIONS = { maxOpenFiles: 74, writeBufferSize: 16 * 2 ** 20 };

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

/** The stores on disk: their native memory is reported with the thread's (live memtables, block cache). */
const stores = new Set();

/**
 * dynalite reads its table's description from the store on every request (`table~<name>`, as many
 * reads as all the items' together), and writes each of an item's index entries on its own before
 * the item: on disk each is a round trip through libuv's thread pool (and each of classic-level's
 * reads takes a LevelDB snapshot on this thread). Tuned, the store keeps the descriptions: a put or
 * a delete of one is what reads answer from the moment it is asked for, a read of LevelDB is kept
 * only when no write of that key was asked for meanwhile or is still being written, and a failed
 * write forgets it; and the puts and deletes asked for in one pass of the thread's event loop
 * (every request that arrived together: a busy service posts its calls in bursts) go to LevelDB as one
 * batch once the pass's callbacks are done (setImmediate), each answered once the batch is written
 * (an item with its entries: below). Batching by the microtask turn, each request's write was a
 * batch of its own (~2 keys): in a storm of webhooks ~22 batches an alert, each a trip through
 * libuv's thread pool and back; by the pass ~11 keys a batch, 7× fewer. Before, a write could be
 * seen only once written, and a read asked before that was answered from a snapshot without it;
 * dynalite waited for each write's answer before relying on it, and still does.
 * `workerData.tuned === false` keeps dynalite's own access (the emulator-store benchmark's side by side).
 */
const tuned = workerData.tuned !== false;
/**
 * Calls that reached the stores: reads of a table's description, writes (a batch is one), and reads
 * of every other key (items, index entries), of which those read at once (`#read`). Tests and
 * benchmarks read them.
 */
const storeCalls = { tableReads: 0, writes: 0, itemReads: 0, itemReadsAtOnce: 0, requestsOverHttp: 0, requestsOverPort: 0 };
const TABLE_KEY = 'table~';
const isTableKey = (key) => typeof key === 'string' && key.startsWith(TABLE_KEY);

/**
 * The store class dynalite makes, with iterators it can end and a count of those still open, and
 * (tuned) its table descriptions kept and the writes of a pass of its event loop batched; a store
 * on disk (`new Level(path, options)`) is also given our LevelDB options.
 */
function forDynalite(Store, { onDisk }) {
  return class extends Store {
    /** Table key → its description as the store holds it once the writes asked for are done (undefined: none). */
    #tables = new Map();
    /** Table key → writes asked for so far: a read that a write overtook is not kept. */
    #tableWrites = new Map();
    /** Table key → writes asked for and not yet done: a read of the store meanwhile is not kept. */
    #tableWritesPending = new Map();
    /** The writes asked for in this pass of the event loop, one batch once its callbacks are done. */
    #pending = null;

    constructor(...args) {
      if (onDisk) args[1] = { ...args[1], ...LEVELDB_OPTIONS };
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

    _get(key, options) {
      if (!isTableKey(key)) return this.#read(key, options);
      const keeps = tuned && options.valueEncoding === 'utf8' && !options.snapshot;
      if (keeps && this.#tables.has(key)) return Promise.resolve(this.#tables.get(key));
      storeCalls.tableReads++;
      if (!keeps) return this.#read(key, options);
      const writes = this.#tableWrites.get(key) ?? 0;
      return this.#read(key, options).then((value) => {
        const settled = (this.#tableWrites.get(key) ?? 0) === writes && !this.#tableWritesPending.get(key);
        if (settled && (value === undefined || typeof value === 'string')) this.#tables.set(key, value);
        return value;
      });
    }

    /**
     * One key read. Tuned, it is read at once on this thread (`getSync`): an item dynalite asks for
     * is almost always in LevelDB's block cache or the page cache, and the asynchronous read took a
     * snapshot here, a trip through libuv's thread pool and a promise settled on its return, several
     * times the read itself (~30 µs against ~3 µs a key, one after the other). Both read the store
     * as it is when asked (the asynchronous read's implicit snapshot is taken then too), so a write
     * asked for and not yet written is not seen by either; dynalite waits for each write's answer
     * before relying on it. A read in an explicit snapshot goes as before.
     */
    #read(key, options) {
      if (!isTableKey(key)) storeCalls.itemReads++;
      if (!tuned || options.snapshot || !this.supports.getSync) return super._get(key, options);
      if (!isTableKey(key)) storeCalls.itemReadsAtOnce++;
      try {
        return Promise.resolve(super._getSync(key, options));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    _put(key, value, options) {
      if (!tuned) {
        storeCalls.writes++;
        return super._put(key, value, options);
      }
      return this.#write({ type: 'put', key, value, keyEncoding: options.keyEncoding, valueEncoding: options.valueEncoding }, options);
    }
    _del(key, options) {
      if (!tuned) {
        storeCalls.writes++;
        return super._del(key, options);
      }
      return this.#write({ type: 'del', key, keyEncoding: options.keyEncoding }, options);
    }
    _batch(operations, options) {
      storeCalls.writes++;
      if (!tuned) return super._batch(operations, options);
      const done = this.#asked(operations);
      return super._batch(operations, options).then(
        () => done(true),
        (error) => {
          done(false);
          throw error;
        },
      );
    }
    _clear(options) {
      if (tuned) {
        for (const key of this.#tables.keys()) this.#overtake(key);
        this.#tables.clear();
      }
      return super._clear(options);
    }

    /** A read of the key's description that began before now is not kept. */
    #overtake(key) {
      this.#tableWrites.set(key, (this.#tableWrites.get(key) ?? 0) + 1);
    }

    /**
     * Takes note of writes asked for: from now on a table's description read is the one they leave.
     * Returns what to call once they are done (false: they failed, and what the store holds is read again).
     */
    #asked(operations) {
      const keys = operations
        .filter((operation) => isTableKey(operation.key))
        .map((operation) => {
          const { type, key, value } = operation;
          this.#overtake(key);
          this.#tableWritesPending.set(key, (this.#tableWritesPending.get(key) ?? 0) + 1);
          if (type === 'put' && typeof value === 'string') this.#tables.set(key, value);
          else if (type === 'del') this.#tables.set(key, undefined);
          else this.#tables.delete(key);
          return key;
        });
      if (keys.length === 0) return () => {};
      return (written) => {
        for (const key of keys) {
          const left = this.#tableWritesPending.get(key) - 1;
          if (left === 0) this.#tableWritesPending.delete(key);
          else this.#tableWritesPending.set(key, left);
          if (!written) {
            this.#overtake(key);
            this.#tables.delete(key);
          }
        }
      };
    }

    /** One put or delete, written with the others of this pass (one batch); a synced write goes alone. */
    #write(operation, options) {
      if (options.sync) return this._batch([operation], options);
      const done = this.#asked([operation]);
      return new Promise((resolve, reject) => {
        if (!this.#pending) {
          this.#pending = [];
          setImmediate(() => this.#flush());
        }
        this.#pending.push({ operation, done, resolve, reject });
      });
    }

    #flush() {
      const writes = this.#pending;
      this.#pending = null;
      storeCalls.writes++;
      super
        ._batch(
          writes.map(({ operation }) => operation),
          {},
        )
        .then(
          () => {
            for (const { done, resolve } of writes) {
              done(true);
              resolve();
            }
          },
          (error) => {
            for (const { done, reject } of writes) {
              done(false);
              reject(error);
            }
          },
        );
    }
  };
}

// dynalite opens its store with `new Level(path, { valueEncoding })` or `new MemoryLevel(…)` and
// takes no LevelDB options: its `level` and `memory-level` modules are given these classes before
// dynalite is loaded.
const dynaliteRequire = createRequire(createRequire(import.meta.url).resolve('dynalite'));
const level = dynaliteRequire('level');
level.Level = forDynalite(level.Level, { onDisk: true });
const memoryLevel = dynaliteRequire('memory-level');
memoryLevel.MemoryLevel = forDynalite(memoryLevel.MemoryLevel, { onDisk: false });
const { default: dynalite } = await import('dynalite');
// Tuned, an expression of a shape parsed before is not parsed again (./expression-cache.mjs).
if (tuned)
  for (const parser of ['conditionParser', 'updateParser', 'projectionParser']) keepParses(dynaliteRequire(`./db/${parser}`), parser);

/**
 * dynalite writes an item's index entries before the item: the old entries deleted, then (once that
 * is done) the new ones put, then (once that is done) the item, three writes one after the other.
 * Tuned, the three are asked for in one turn, so they are in one batch, written whole or not at all: a
 * failed batch fails the item's write, which is what dynalite answers (the entries' own outcome it
 * only ever passed on).
 */
const dynaliteDb = dynaliteRequire('./db');
const updateIndexes = dynaliteDb.updateIndexes;
dynaliteDb.updateIndexes = function updateIndexesWithTheItem(store, table, existingItem, item, done) {
  if (!tuned) return updateIndexes(store, table, existingItem, item, done);
  if (!existingItem && !item) return done();
  // Every index's old entries deleted, then every new one put, as dynalite orders them.
  const deletes = [];
  const puts = [];
  for (const indexType of ['Local', 'Global']) {
    const { deletes: gone, puts: added } = dynaliteDb.getIndexActions(
      table[`${indexType}SecondaryIndexes`] || [],
      existingItem,
      item,
      table,
    );
    const indexDb = (action) => store.getIndexDb(indexType, table.TableName, action.index);
    deletes.push(...gone.map((action) => [indexDb(action), action]));
    puts.push(...added.map((action) => [indexDb(action), action]));
  }
  // Their outcome is the item's write's, in the same batch.
  for (const [indexDb, action] of deletes) indexDb.del(action.key, () => {});
  for (const [indexDb, action] of puts) indexDb.put(action.key, action.item, () => {});
  done();
};

const server = dynalite({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.keepAliveTimeout = 65_000;
server.once('error', (error) => parentPort.postMessage({ type: 'error', message: String(error) }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'ready', port: server.address().port }));
server.on('request', () => storeCalls.requestsOverHttp++);

/**
 * The same requests over a MessagePort (infra/local/dynamo-port.ts): the service's own clients, on
 * the main thread of this process, hand their HTTP requests here as they are (method, path, headers
 * and body, signed as the SDK signed them) and get dynalite's answer back (status, headers, body),
 * without the sockets and the HTTP parsing and writing of both ends: those were ~40 % of a GetItem's
 * CPU in the process. dynalite's own request listener answers, given the request as its body's data
 * and end, and an answer that keeps its status, headers and body. The port over loopback TCP stays
 * for every other client (the tests', the admin scripts', a table browser).
 */
const encoder = new TextEncoder();

function answerOverPort(port) {
  const listen = server.listeners('request')[0];
  port.on('message', (request) => {
    storeCalls.requestsOverPort++;
    const req = new EventEmitter();
    req.method = request.method;
    req.url = request.path;
    req.headers = request.headers;
    const headers = {};
    const res = {
      statusCode: 200,
      setHeader(name, value) {
        headers[name.toLowerCase()] = String(value);
      },
      end(body = '') {
        const bytes = typeof body === 'string' ? encoder.encode(body) : new Uint8Array(body);
        port.postMessage({ id: request.id, status: res.statusCode, headers, body: bytes }, [bytes.buffer]);
      },
    };
    try {
      listen(req, res);
      if (request.body) req.emit('data', Buffer.from(request.body));
      req.emit('end');
    } catch (error) {
      res.statusCode = 500;
      res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) }));
    }
  });
}

/** The live memtables and the block cache, in bytes (not a memtable kept only by an open iterator); null in memory or before the store opens. */
function leveldbProperty(name) {
  const store = [...stores].find((candidate) => candidate.status === 'open');
  if (!store) return null;
  try {
    return Number(store.getProperty(name));
  } catch {
    return null;
  }
}

/** Table files of the store on disk, over LevelDB's seven levels (null in memory). */
function tableFiles() {
  const levels = Array.from({ length: 7 }, (_, level) => leveldbProperty(`leveldb.num-files-at-level${level}`));
  return levels.includes(null) ? null : levels.reduce((sum, files) => sum + files, 0);
}

parentPort.on('message', (message) => {
  if (message?.type === 'port') {
    answerOverPort(message.port);
    return;
  }
  // The thread's own heap (and its external and array-buffer memory): what the runtime reports
  // for the emulator, apart from the functions' heap on the main thread.
  if (message === 'memory') {
    parentPort.postMessage({
      type: 'memory',
      usage: process.memoryUsage(),
      leveldbBytes: leveldbProperty('leveldb.approximate-memory-usage'),
      tableFiles: tableFiles(),
      openIterators,
    });
    return;
  }
  if (message === 'store calls') {
    parentPort.postMessage({
      type: 'store calls',
      ...storeCalls,
      expressionsParsed: expressionParses.parsed,
      expressionsReused: expressionParses.reused,
    });
    return;
  }
  if (message !== 'stop') return;
  // dynalite's close also closes its LevelDB store (flushing it to the folder) once every
  // connection is gone, so idle keep-alive sockets are dropped right away.
  server.close(() => parentPort.postMessage({ type: 'stopped' }));
  server.closeAllConnections();
});

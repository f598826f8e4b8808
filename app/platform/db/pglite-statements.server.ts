import {
  parse,
  PGlite,
  type PGliteOptions,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";

/**
 * How many statements the embedded database keeps prepared; beyond it the one used longest ago
 * is closed. Each holds its parsed query (and, after a few runs, its plan) in PostgreSQL's memory,
 * and PGlite's WebAssembly memory is never given back: 400 statements of a four-table join took
 * 39 MB, while 1,000 through a bound of 100 took 5 MB. A visit to every page prepares about 45.
 */
export const PREPARED_STATEMENTS_KEPT = 100;

/**
 * Statements larger than this are run unprepared: a bulk insert's plan grows with its rows, and
 * PGlite's WebAssembly memory never shrinks, while planning such a statement costs little beside
 * its work. (Pages send a few parameters each; the seeding and the import write in batches of
 * hundreds of rows.)
 */
const KEPT_AT_MOST = { params: 100, chars: 8_000 };

/** SQLSTATEs that mean a kept statement no longer fits the database (a table's columns changed under it). */
const STALE_STATEMENT = new Set([
  "0A000" /* cached plan must not change result type */,
  "26000" /* no such prepared statement */,
]);

type Prepared = { name: string; paramTypes: number[] };

const { serialize } = protocol;

function joined(messages: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(messages.reduce((length, message) => length + message.length, 0));
  let offset = 0;
  for (const message of messages) {
    out.set(message, offset);
    offset += message.length;
  }
  return out;
}

/**
 * PGlite with its statements prepared once. PGlite's own `query` parses and plans every statement
 * afresh and crosses into the database six times to run it; here a statement is parsed once
 * (named, with its parameters' types kept) and then each run is one crossing with Bind, Describe,
 * Execute and Sync. PostgreSQL keeps the plan, or plans again when a table or index it reads
 * changes. Measured on the large demo data set: the letter box's page of letters 480 → 215 µs,
 * the member's own letters 310 → 100 µs, `select 1` 95 → 35 µs.
 *
 * Only PGlite's public API is used: `execProtocol` sends the messages, `runExclusive` keeps any
 * other query from crossing in between (PGlite documents it for that), and `transaction` opens
 * and ends transactions. PGlite's public API has no way to wait for its transactions, which hold
 * its lock for queries only while each of their statements runs, so this class keeps a lock of
 * its own: a statement run here outside a transaction waits for a transaction opened here to end.
 * Every transaction on this database is opened here; PGlite's own `query` and `exec` wait for
 * one by PGlite's own lock.
 *
 * A query with a file attached (`COPY ... '/dev/blob'`), its own parameter types, or the size of a
 * bulk write (KEPT_AT_MOST) goes through PGlite's own path; so do `exec`, `listen` and a transaction's `sql`.
 */
export class PGliteWithPreparedStatements extends PGlite {
  /** Most recently used last: a Map iterates in insertion order, and a use moves the statement to the end. */
  readonly #prepared = new Map<string, Prepared>();
  #counter = 0;
  /** Settles when the last statement or transaction queued here has ended; each new one chains on. */
  #queue: Promise<unknown> = Promise.resolve();

  static async open(options: PGliteOptions): Promise<PGliteWithPreparedStatements> {
    const client = new PGliteWithPreparedStatements(options);
    await client.waitReady;
    return client;
  }

  /** How many statements are prepared now (for tests and diagnostics). */
  get preparedCount(): number {
    return this.#prepared.size;
  }

  override async query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    if (!preparable(text, params, options)) return super.query<T>(text, params, options);
    if (!this.ready) await this.#untilReady();
    return this.#oneAtATime(async () => {
      const results = await this.#run<T>(text, params ?? [], options, true);
      await this.syncToFs();
      return results;
    });
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#oneAtATime(() =>
      super.transaction((tx) => {
        const prepared: Transaction = Object.create(tx, {
          query: {
            value: async <R>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<R>> => {
              if (tx.closed) throw new Error("Transaction is closed");
              if (!preparable(text, params, options)) return tx.query<R>(text, params, options);
              // Inside a transaction a failed statement aborts it, so a stale statement is not retried here.
              return this.#run<R>(text, params ?? [], options, false);
            },
          },
        });
        return callback(prepared);
      }),
    );
  }

  /** Runs `work` after every statement and transaction queued here before it has ended. */
  #oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.then(nothing, nothing);
    return run;
  }

  /** Waits for PGlite to open; refuses once it is closing or closed, as PGlite's own `query` does. */
  async #untilReady(): Promise<void> {
    if (!this.closed) await this.waitReady;
    if (!this.ready) throw new Error(this.closed ? "PGlite is closed" : "PGlite is closing");
  }

  async #run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    mayRetry: boolean,
  ): Promise<Results<T>> {
    return this.runExclusive(async () => {
      // The database may have begun to close while this statement waited its turn.
      if (!this.ready) throw new Error(this.closed ? "PGlite is closed" : "PGlite is closing");
      try {
        return await this.#bindAndExecute<T>(await this.#statement(text), params, options);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === undefined || !STALE_STATEMENT.has(code)) throw withQuery(error, text, params, options);
        await this.#forget(text);
        if (!mayRetry) throw withQuery(error, text, params, options);
        try {
          return await this.#bindAndExecute<T>(await this.#statement(text), params, options);
        } catch (again) {
          throw withQuery(again, text, params, options);
        }
      }
    });
  }

  async #statement(text: string): Promise<Prepared> {
    const kept = this.#prepared.get(text);
    if (kept) {
      this.#prepared.delete(text);
      this.#prepared.set(text, kept);
      return kept;
    }
    const oldest = this.#prepared.size >= PREPARED_STATEMENTS_KEPT ? this.#prepared.keys().next().value : undefined;
    if (oldest !== undefined) await this.#forget(oldest);
    const name = `hopewell_${++this.#counter}`;
    // Parse and Describe in one crossing; Sync ends it, so a statement that fails to parse leaves the session ready.
    const { messages } = await this.execProtocol(
      joined([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.#prepared.set(text, statement);
    return statement;
  }

  async #bindAndExecute<T>(
    statement: Prepared,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    // Parameters are written as PGlite's own query writes them: by the parameter's type, or as text.
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const type = statement.paramTypes[i]!;
      const write = options?.serializers?.[type] ?? this.serializers[type];
      return write ? write(param) : String(param);
    });
    const { messages } = await this.execProtocol(
      joined([
        serialize.bind({ statement: statement.name, values: values as string[] }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    // PGlite's parseResults copies its ~320 type parsers into a new object with the caller's own on
    // top, for every statement: about 70 µs each. The caller's few, over PGlite's as a prototype, read the same.
    if (!options?.parsers) return parse.parseResults(messages, this.parsers, options)[0] as Results<T>;
    const parsers: PGlite["parsers"] = Object.assign(Object.create(this.parsers) as PGlite["parsers"], options.parsers);
    return parse.parseResults(messages, parsers, { ...options, parsers: undefined })[0] as Results<T>;
  }

  async #forget(text: string): Promise<void> {
    const statement = this.#prepared.get(text);
    if (!statement) return;
    this.#prepared.delete(text);
    await this.execProtocol(joined([serialize.close({ type: "S", name: statement.name }), serialize.sync()]), {
      syncToFs: false,
      throwOnError: false,
    });
  }
}

function nothing(): void {}

function preparable(text: string, params: unknown[] | undefined, options: QueryOptions | undefined): boolean {
  return (
    !options?.blob &&
    !options?.paramTypes &&
    (params?.length ?? 0) <= KEPT_AT_MOST.params &&
    text.length <= KEPT_AT_MOST.chars
  );
}

/** The statement and its parameters on the error, as PGlite's own query puts them there. */
function withQuery(error: unknown, query: string, params: unknown[], queryOptions: QueryOptions | undefined): unknown {
  if (error instanceof Error && "code" in error) Object.assign(error, { query, params, queryOptions });
  return error;
}

/**
 * Rows that may be written a moment late, gathered and written together: a row waits at most
 * `flushMs` (or until `maxRows` are waiting) and the batch goes in with one `write`. One commit per
 * row costs more than the work that made it (each commit appends WAL pages and slows every read
 * until the next checkpoint); this is one write per `flushMs` at any load.
 *
 * What that costs: a process killed between a row's `add` and the next flush loses the rows of that
 * window, so only rows that record (never rows that decide anything) are written this way. A failed
 * write is reported to `onError` and never reaches whoever added the rows. `flushMs: 0` writes at
 * the end of the event-loop turn. A reader that must see a row awaits `flush()`, never the timer.
 */
export interface WriteBatch<Row> {
  add(row: Row): void;
  /** Writes every pending row now; resolves once all rows added so far are written (or reported). */
  flush(): Promise<void>;
}

export function createWriteBatch<Row>(options: {
  write: (rows: Row[]) => Promise<unknown>;
  onError: (error: unknown, rows: number) => void;
  flushMs: number;
  maxRows: number;
}): WriteBatch<Row> {
  let rows: Row[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  function flush(): Promise<void> {
    if (timer !== undefined) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
      timer = undefined;
    }
    if (rows.length === 0) return writing;
    const batch = rows;
    rows = [];
    writing = writing.then(() =>
      options.write(batch).then(
        () => undefined,
        (error: unknown) => {
          options.onError(error, batch.length);
        },
      ),
    );
    return writing;
  }

  const scheduled = () => void flush();
  return {
    add(row) {
      rows.push(row);
      if (rows.length >= options.maxRows) void flush();
      else if (timer === undefined) {
        // Unreferenced: a pending batch never keeps the process alive; closing the server flushes it.
        timer = options.flushMs === 0 ? setImmediate(scheduled) : setTimeout(scheduled, options.flushMs);
        timer.unref();
      }
    },
    flush,
  };
}

import { connect, type Socket } from 'node:net';

/** One keep-alive connection, written to and read from by hand; it records how it ended. */
export class Connection {
  readonly socket: Socket;
  #received = Buffer.alloc(0);
  #waiters: (() => void)[] = [];
  error: NodeJS.ErrnoException | undefined;
  closed = false;
  /** The server ended its side of the connection. */
  serverEnded = false;

  /** `halfOpen`: the client's side stays open for writing after the server ended its own. */
  constructor(port: number, halfOpen = false) {
    this.socket = connect({ port, host: '127.0.0.1', allowHalfOpen: halfOpen });
    this.socket.on('data', (chunk) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      this.#wake();
    });
    this.socket.on('error', (error) => {
      this.error = error;
    });
    this.socket.on('end', () => {
      this.serverEnded = true;
      this.#wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
  }

  #wake() {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Writes, and waits until the kernel took it (so a reset shows as an error, not a lost write). */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) resolve();
      else this.socket.write(bytes, () => resolve());
    });
  }

  /** Writes `count` filler bytes, a chunk at a time, stopping early if the connection is gone. */
  async fill(count: number): Promise<number> {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    while (written < count && !this.socket.destroyed) {
      const size = Math.min(chunk.length, count - written);
      await this.write(size === chunk.length ? chunk : chunk.subarray(0, size));
      written += size;
    }
    return written;
  }

  /** The next whole response (head and Content-Length body), or null when the connection ended first. */
  async response(): Promise<{ status: number; head: string; body: string } | null> {
    for (;;) {
      const end = this.#received.indexOf('\r\n\r\n');
      if (end !== -1) {
        const head = this.#received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (this.#received.length >= end + 4 + length) {
          const body = this.#received.subarray(end + 4, end + 4 + length).toString('utf8');
          this.#received = this.#received.subarray(end + 4 + length);
          return { status: Number(head.slice(9, 12)), head, body };
        }
      }
      if (this.closed) return null;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves when the server has closed the connection. */
  async ended(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves when the server has ended its side of the connection (or closed it). */
  async serverDone(): Promise<void> {
    while (!this.serverEnded && !this.closed)
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

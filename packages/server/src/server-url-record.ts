import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The file in the data dir where `npm start` leaves the address it printed. The CLI shares the data
 * dir with the server (the SQLite store, `secret.key`) but not always its environment: a server
 * started with `DIOSC_PORT=4000` in one terminal and `diosc connections create` in another would
 * otherwise name the default port.
 */
export function serverUrlFile(dataDir: string): string {
  return join(dataDir, 'server-url');
}

/** Remembers the address this server serves at; at every start, so the last start wins. */
export function recordServerUrl(dataDir: string, url: string): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(serverUrlFile(dataDir), `${url}\n`);
}

/** The address the server last started at on this data dir, if it ever did (and it reads as one). */
export function recordedServerUrl(dataDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(serverUrlFile(dataDir), 'utf8').trim();
  } catch {
    return undefined;
  }
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text ? text : undefined;
  } catch {
    return undefined;
  }
}

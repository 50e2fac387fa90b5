import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type KitEncoding = 'br' | 'gzip' | 'identity';

/** One kit file as it is sent: its bytes in each encoding and a validator for each. */
interface KitFile {
  version: string;
  bodies: Record<KitEncoding, Buffer>;
  etags: Record<KitEncoding, string>;
}

/**
 * The kit's files compressed once, the way a CDN serves them: Brotli at its best quality (the
 * kit is read by every page view, compressed once per build), gzip for clients without it. Held
 * per file name and rebuilt when the file's size or modification time changes; only names the
 * route allows and that exist are ever held, so the map is as small as the kit's folder.
 */
export function createKitFileCache(dir: string) {
  const files = new Map<string, Promise<KitFile>>();

  async function load(name: string, version: string): Promise<KitFile> {
    const identity = await readFile(join(dir, name));
    const [br, gz] = await Promise.all([
      brotli(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
      gzipAsync(identity, { level: 9 }),
    ]);
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    return {
      version,
      bodies: { br, gzip: gz, identity },
      // One validator per representation: a cached Brotli body is not the gzip one.
      etags: { br: `"${hash}-br"`, gzip: `"${hash}-gz"`, identity: `"${hash}"` },
    };
  }

  return {
    /** The file, or `undefined` when it is not in the folder (not built, or no such hash). */
    async get(name: string): Promise<KitFile | undefined> {
      let version: string;
      try {
        const info = await stat(join(dir, name));
        if (!info.isFile()) return undefined;
        version = `${info.size}:${info.mtimeMs}`;
      } catch {
        return undefined;
      }
      const held = files.get(name);
      if (held && (await held.catch(() => undefined))?.version === version) return held;
      const loading = load(name, version);
      files.set(name, loading);
      loading.catch(() => files.delete(name));
      return loading.catch(() => undefined);
    },
  };
}

/**
 * The encoding to send for an `Accept-Encoding` header: Brotli, else gzip, else the bytes as they
 * are; a coding the client lists with `q=0` is one it refuses.
 */
export function pickEncoding(header: string | undefined): KitEncoding {
  const accepted = new Set<string>();
  for (const part of (header ?? '').slice(0, 1024).split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    accepted.add(coding.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** Whether an `If-None-Match` header names this validator (weak comparison, as for GET). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .slice(0, 4096)
    .split(',')
    .some((tag) => {
      const value = tag.trim();
      return value === '*' || value.replace(/^W\//, '') === etag;
    });
}

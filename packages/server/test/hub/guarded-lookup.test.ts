import type { LookupAddress } from 'node:dns';
import { DioscError } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { guardedLookup, type OutboundLookup } from '../../src/hub/outbound/guarded-fetch.js';

const PUBLIC = [
  { address: '93.184.216.34', family: 4 },
  { address: '2606:4700::1111', family: 6 },
];

/** A resolver that answers `answer` and records what it was asked. */
function resolver(answer: LookupAddress[] | Error) {
  const asked: { hostname: string; family: number; all: boolean }[] = [];
  const lookup: OutboundLookup = (hostname, options, callback) => {
    asked.push({ hostname, family: options.family, all: options.all });
    if (answer instanceof Error) callback(answer as NodeJS.ErrnoException, []);
    else callback(null, answer);
  };
  return { lookup, asked };
}

/** Calls the guarded lookup as a socket does, and resolves with what it was called back with. */
function connectLookup(
  policy: Parameters<typeof guardedLookup>[0],
  options: { all?: boolean; family?: number } | number,
) {
  return new Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }>((done) =>
    guardedLookup(policy)('example.test', options, (error, address, family) =>
      done({ error, address, ...(family !== undefined && { family }) }),
    ),
  );
}

describe('the guarded lookup, as a connection calls it', () => {
  it('asks the resolver for every address of the family wanted (a number or an object), and hands back the first', async () => {
    const { lookup, asked } = resolver(PUBLIC);
    expect(await connectLookup({ allowPrivate: false, lookup }, 4)).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect(await connectLookup({ allowPrivate: false, lookup }, { family: 6 })).toMatchObject({
      address: '93.184.216.34',
    });
    expect(await connectLookup({ allowPrivate: false, lookup }, {})).toMatchObject({
      address: '93.184.216.34',
    });
    expect(asked).toEqual([
      { hostname: 'example.test', family: 4, all: true },
      { hostname: 'example.test', family: 6, all: true },
      { hostname: 'example.test', family: 0, all: true },
    ]);
  });

  it('hands back every address when the socket asks for all', async () => {
    const { lookup } = resolver(PUBLIC);
    expect(await connectLookup({ allowPrivate: false, lookup }, { all: true })).toEqual({
      error: null,
      address: PUBLIC,
    });
  });

  it('refuses a name with any address that is not public, before a connection', async () => {
    const { lookup } = resolver([...PUBLIC, { address: '10.0.0.7', family: 4 }]);
    const { error, address } = await connectLookup({ allowPrivate: false, lookup }, { all: true });
    expect(error).toBeInstanceOf(DioscError);
    expect((error as DioscError).code).toBe('fetch_refused');
    expect(error!.message).toBe('example.test resolves to an address that is not public.');
    expect(address).toEqual([]);
    // Allowed by the operator: the private address is handed back.
    expect(await connectLookup({ allowPrivate: true, lookup }, 0)).toMatchObject({
      error: null,
      address: '93.184.216.34',
    });
  });

  it('passes on the resolver’s failure, and says so when a name has no address', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND example.test'), { code: 'ENOTFOUND' });
    expect(await connectLookup({ allowPrivate: false, lookup: resolver(failure).lookup }, 0)).toEqual({
      error: failure,
      address: [],
    });
    const empty = await connectLookup({ allowPrivate: false, lookup: resolver([]).lookup }, 0);
    expect(empty.error?.message).toBe('example.test has no address.');
    expect(empty.address).toEqual([]);
  });
});

import type { GrantEntry } from '../../src/connections/grant.js';
import { callJson, type OwnerSession } from '../owner/owner-client.js';

export interface Receipt {
  id: string;
  tool: string;
  input: Record<string, unknown>;
  digest: string;
  expiresAt: string;
  effects: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** The browser-access endpoints as the WebMCP adapter and the review dialog call them. */
export function browserClient(baseUrl: string, owner: OwnerSession) {
  let generation = 0;
  const api = {
    get generation() {
      return generation;
    },
    set generation(value: number) {
      generation = value;
    },
    async enable(selection: GrantEntry[] | unknown) {
      const response = await callJson<{ generation: number }>(baseUrl, '/browser-access', owner, {
        method: 'PUT',
        body: { selection },
      });
      if (response.status === 200) generation = response.body.generation;
      return response;
    },
    disable: () => callJson(baseUrl, '/browser-access', owner, { method: 'DELETE' }),
    state: () => callJson(baseUrl, '/browser-access', owner),
    descriptors: () => callJson(baseUrl, '/browser-access/descriptors', owner),
    dispatch: (tool: string, input: unknown, extra: Json = {}) =>
      callJson<Json>(baseUrl, '/browser-access/dispatch', owner, {
        body: { tool, input, generation, ...extra },
      }),
    prepare: (tool: string, input: unknown, extra: Json = {}) =>
      callJson<{ receipt: Receipt } & Json>(baseUrl, '/browser-access/prepare', owner, {
        body: { tool, input, generation, ...extra },
      }),
    acknowledge: (receipt: Pick<Receipt, 'id' | 'digest'>) =>
      callJson<Json>(baseUrl, `/browser-access/receipts/${receipt.id}/acknowledge`, owner, {
        body: { digest: receipt.digest },
      }),
    execute: (receipt: Pick<Receipt, 'id' | 'tool' | 'input'>, extra: Json = {}) =>
      callJson<Json>(baseUrl, '/browser-access/execute', owner, {
        body: { receiptId: receipt.id, tool: receipt.tool, input: receipt.input, generation, ...extra },
      }),
    /** prepare → acknowledge → execute, as the review dialog does when the owner accepts. */
    async reviewAndExecute(tool: string, input: unknown) {
      const prepared = await api.prepare(tool, input);
      if (prepared.status !== 201) return prepared;
      const receipt = prepared.body.receipt;
      const acknowledged = await api.acknowledge(receipt);
      if (acknowledged.status !== 200) return acknowledged;
      return api.execute(receipt);
    },
  };
  return api;
}

import type { ErrorCode } from '@diosc/protocol';
import type { AdapterState, RevokeReason } from './adapter-types.js';

/** Anything registered with WebMCP: the catalog's descriptors here, the kit's intents there. */
export interface Named {
  readonly name: string;
}

/** One registration: its epoch, and the tool-set and session generations it was made for. */
export interface RegistrationKey {
  readonly epoch: number;
  readonly generation: number;
  readonly sessionGeneration: number;
}

/** The whole lifecycle as data. Nothing else about it is mutable; `transition` makes the next one. */
export interface LifecycleState {
  /** False when the platform has no WebMCP: the state stays `unsupported` and nothing happens. */
  readonly supported: boolean;
  readonly disposed: boolean;
  /** What the page shows (frozen); every change is published. */
  readonly view: AdapterState;
  /** Bumped by every teardown: a registration, and each callback it handed out, of an older epoch is over. */
  readonly epoch: number;
  /** Bumped by every sync and revocation: the answer to an older request is dropped. */
  readonly seq: number;
  /** The tool request in flight, and the session generation it was asked for. */
  readonly loading: { readonly seq: number; readonly sessionGeneration: number } | null;
  /** The registration being installed. */
  readonly registering: RegistrationKey | null;
  /** The registration the page exposes, with the names it installed. */
  readonly live: (RegistrationKey & { readonly names: readonly string[] }) | null;
  /** The session generation of the last sync, until that session is known to be over. */
  readonly sessionGeneration: number | null;
  /** The browser event that brings back what a revocation took away: `online`, or a bfcache restore. */
  readonly resumeOn: 'online' | 'pageshow' | null;
}

/** What happened: a call of the public API, a browser event, or the result of an effect. */
export type LifecycleEvent<T extends Named> =
  | { type: 'sync'; sessionGeneration: number; offline: boolean }
  | { type: 'loaded'; seq: number; tools: readonly T[]; generation: number; sessionGeneration: number }
  | { type: 'load-failed'; seq: number; offline: boolean; code: ErrorCode; reason: string }
  | { type: 'registered'; epoch: number; names: readonly string[] }
  | { type: 'registration-failed'; epoch: number; reason: string }
  | { type: 'revoke'; reason: RevokeReason; detail?: { reason?: string; code?: ErrorCode } }
  /** The server refused a call of the registration of `epoch` because the session or the tools are gone. */
  | { type: 'refused'; epoch: number; code: ErrorCode; reason: string }
  /** A call of the registration of `epoch` found the tools out of date (a disconnected source): load them again. */
  | { type: 'resync'; epoch: number; offline: boolean }
  | { type: 'online'; offline: boolean }
  | { type: 'pageshow'; persisted: boolean; offline: boolean }
  | { type: 'dispose' };

/** What the shell must do; it reports each asynchronous result back as an event. */
export type LifecycleEffect<T extends Named> =
  /** Request the tools to register (aborting any earlier request); answer `loaded` / `load-failed`. */
  | { type: 'load'; seq: number }
  | { type: 'cancel-load' }
  /** Register `tools` as the registration of `epoch`; answer `registered` / `registration-failed`. */
  | { type: 'register'; epoch: number; generation: number; tools: readonly T[] }
  /** The registration of `epoch` is over: its callbacks answer `code` from now on; remove its tools. */
  | { type: 'end'; epoch: number; code: ErrorCode }
  | { type: 'publish'; state: AdapterState }
  /** Stop listening to the window. */
  | { type: 'unwatch' };

export interface LifecycleStep<T extends Named> {
  state: LifecycleState;
  effects: LifecycleEffect<T>[];
}

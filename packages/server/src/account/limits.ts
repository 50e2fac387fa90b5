/** Bounds, quotas and admission limits of the account core. Every one is configurable. */
export interface AccountLimits {
  /** Items returned when a list call gives no limit. */
  defaultPageSize: number;
  /** Characters of item content returned by item_read before `truncated` is set. */
  readContentMaxChars: number;
  maxItemsPerAccount: number;
  maxBytesPerAccount: number;
  callsPerMinutePerCaller: number;
  maxConcurrentPerAccount: number;
  /** How long a committed receipt is kept for replay (documented in docs/architecture.md). */
  receiptRetentionMs: number;
  /** How long an in-flight claim blocks its request ID before a crashed holder is presumed gone. */
  inFlightLeaseMs: number;
}

export const DEFAULT_LIMITS: AccountLimits = {
  defaultPageSize: 50,
  readContentMaxChars: 65_536,
  maxItemsPerAccount: 50_000,
  maxBytesPerAccount: 256 * 1024 * 1024,
  callsPerMinutePerCaller: 1_200,
  maxConcurrentPerAccount: 16,
  receiptRetentionMs: 7 * 24 * 60 * 60 * 1000,
  inFlightLeaseMs: 30_000,
};

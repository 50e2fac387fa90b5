import { DioscError } from '@diosc/protocol';

const DURATION = /^([0-9]{1,6})([mhdw])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
// A date (2026-12-01) or a date and time with a zone (2026-12-01T10:00:00Z, …+02:00).
const ISO =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$/;

/**
 * A point in time an audit filter names (`since`, `until`): an ISO date (midnight UTC), an ISO date
 * and time with its zone, or a duration before `now` (`30m`, `24h`, `7d`, `2w`). Epoch milliseconds.
 */
export function auditTimeOf(value: string, name: string, now: number): number {
  const duration = DURATION.exec(value);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  const time = ISO.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time))
    throw new DioscError(
      'invalid_input',
      `${name} must be an ISO date or time (2026-12-01, 2026-12-01T10:00:00Z) or a duration (30m, 24h, 7d, 2w).`,
    );
  return time;
}

import { parseArgs } from 'node:util';
import { DioscError } from '@diosc/protocol';
import { createAuditLog } from '../audit/audit-log.js';
import { auditTimeOf } from '../audit/audit-time.js';
import { systemClock } from '../clock.js';
import { firstRunLines, openLocalStore } from './local-store.js';
import { AUDIT_USAGE } from './usage.js';

const ASSISTANT_ID = /^ast_[A-Za-z0-9]{1,40}$/;

/**
 * `diosc audit export --since <time> [--until <time>] [--assistant <id>]`: the audit records of the
 * local store as JSON lines (one `AuditRecordView` a line, oldest first) on stdout, for a SIEM or
 * an archive. With `--assistant`, that assistant's records only (account-level ones have none).
 */
export async function auditCommand(
  argv: string[],
  io: { out(line: string): void; err(text: string): void; env: NodeJS.ProcessEnv },
  now: () => number = systemClock.now,
): Promise<void> {
  const { out } = io;
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      assistant: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return out(AUDIT_USAGE);
  if (positionals.length !== 1 || positionals[0] !== 'export')
    throw new DioscError('invalid_input', AUDIT_USAGE);
  if (values.since === undefined) throw new DioscError('invalid_input', '--since is required.');
  if (values.assistant !== undefined && !ASSISTANT_ID.test(values.assistant))
    throw new DioscError('invalid_input', '--assistant takes an assistant ID (ast_…).');
  const time = now();
  const since = auditTimeOf(values.since, '--since', time);
  const until = values.until === undefined ? undefined : auditTimeOf(values.until, '--until', time);
  const local = await openLocalStore(io.env);
  try {
    // Stdout is the export, JSON lines only: a first-run notice goes to stderr.
    for (const line of firstRunLines(local.owner)) io.err(`${line}\n`);
    const records = createAuditLog(local.store.db).all({
      since,
      ...(until !== undefined ? { until } : {}),
      ...(values.assistant !== undefined ? { assistantId: values.assistant } : {}),
    });
    for await (const record of records) out(JSON.stringify(record));
  } finally {
    await local.store.close();
  }
}

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
/** Installed by `npm test` (scripts/lib.mjs `ensureDependencies('tools/mcp-conformance')`). */
const TOOL = join(ROOT, 'tools/mcp-conformance/node_modules');
export const NODE_22 = join(TOOL, 'node/bin/node');
const CLI = join(TOOL, '@modelcontextprotocol/conformance/dist/index.js');
export const RESULTS = join(ROOT, 'test-results/mcp-conformance');

export interface CheckResult {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

export interface ScenarioRun {
  scenario: string;
  exitCode: number;
  checks: CheckResult[];
  output: string;
}

export const conformanceInstalled = () => existsSync(NODE_22) && existsSync(CLI);

/** Every checks.json under `dir` (the suite writes one per scenario, in a timestamped folder). */
function checksUnder(dir: string): CheckResult[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return checksUnder(path);
    return name === 'checks.json' ? (JSON.parse(readFileSync(path, 'utf8')) as CheckResult[]) : [];
  });
}

/**
 * Runs one server scenario of the official suite (`@modelcontextprotocol/conformance`) under the
 * Node 22 it needs — the `node` npm package's binary, never the system's — and reads its checks.
 */
export async function runScenario(url: string, scenario: string): Promise<ScenarioRun> {
  const out = join(RESULTS, scenario);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await promisify(execFile)(
    NODE_22,
    [CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', out],
    { cwd: ROOT, timeout: 120_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } },
  ).then(
    ({ stdout, stderr }) => ({ exitCode: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      exitCode: typeof error.code === 'number' ? error.code : 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  return { scenario, ...result, checks: checksUnder(out) };
}

/** The server scenarios the installed suite knows (`conformance list --server`). */
export async function serverScenarios(): Promise<string[]> {
  const { stdout } = await promisify(execFile)(NODE_22, [CLI, 'list', '--server'], { cwd: ROOT });
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

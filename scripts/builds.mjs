// Which workspace builds are stale, and rebuilding only those: `npm start`, `npm run diosc` and
// `npm run example` call `ensureBuilt`; `node scripts/builds.mjs NAME…` does the same from a shell
// (the CLI tests run it so they never run an old bin). A build is fresh when the digest of its
// inputs' contents equals the one stamped into its output after it last built. Contents, not
// mtimes: a checkout or a copy moves mtimes without changing anything (and the reverse happens
// too, with a clock that goes back), and "dist exists" says nothing of what it was built from.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Inside the output, so a build that empties its folder (all three do) takes the stamp with it. */
export const STAMP = '.diosc-build-inputs';
/** Not what a build reads: outputs, installed packages, tests. */
const SKIPPED = new Set(['dist', 'node_modules', 'test', '.data', 'test-results']);

function workspaceDirs(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = new Map();
  for (const pattern of manifest.workspaces) {
    const paths = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern];
    for (const path of paths) {
      const file = join(root, path, 'package.json');
      if (existsSync(file)) dirs.set(JSON.parse(readFileSync(file, 'utf8')).name, join(root, path));
    }
  }
  return dirs;
}

/**
 * The folders a workspace's build reads: its own and those of the workspace packages it depends
 * on, transitively (the server bundles @diosc/protocol's source; the portal, the kit's), read from
 * the package.json files so a new dependency is watched without anyone listing it here.
 */
export function buildInputs(name, root = ROOT) {
  const dirs = workspaceDirs(root);
  const seen = new Set();
  const visit = (pkg) => {
    if (seen.has(pkg) || !dirs.has(pkg)) return;
    seen.add(pkg);
    const manifest = JSON.parse(readFileSync(join(dirs.get(pkg), 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) visit(dep);
  };
  visit(name);
  if (!seen.has(name)) throw new Error(`BUILD_UNKNOWN_WORKSPACE: no workspace is named ${name}`);
  // The lockfile pins the bundlers and every bundled dependency; the base tsconfig, the transform.
  return [
    ...[...seen].map((pkg) => dirs.get(pkg)),
    join(root, 'package-lock.json'),
    join(root, 'tsconfig.base.json'),
  ];
}

function files(path, into = []) {
  if (!existsSync(path)) return into;
  if (!statSync(path).isDirectory()) {
    into.push(path);
    return into;
  }
  for (const entry of readdirSync(path).sort()) if (!SKIPPED.has(entry)) files(join(path, entry), into);
  return into;
}

/** SHA-256 over every input file's path (from the root) and content. */
export function inputsDigest(inputs, root = ROOT) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => files(input))) {
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The workspaces with a `build` script, in the root's order (`npm run build --workspaces`'s). */
export function buildableWorkspaces(root = ROOT) {
  return [...workspaceDirs(root)]
    .filter(([, dir]) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.build)
    .map(([name]) => name);
}

const stampOf = (name, root) => join(workspaceDirs(root).get(name), 'dist', STAMP);

/** True when the workspace's dist was built, through `ensureBuilt`, from exactly these inputs. */
export function isBuildFresh(name, root = ROOT) {
  const stamp = stampOf(name, root);
  return (
    existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsDigest(buildInputs(name, root), root)
  );
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Builds each named workspace whose output is stale (`npm run build --workspace NAME`), in the
 * order given, and stamps it. Processes that need the same build at once (test files run in
 * parallel) take turns through a lock folder; the one that waited finds the build fresh.
 */
export function ensureBuilt(names, { root = ROOT, log = console.error } = {}) {
  const lock = join(root, 'node_modules', '.cache', 'diosc-build.lock');
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than five minutes belongs to a build that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000)
        rmSync(lock, { recursive: true });
      sleep(200);
    }
  }
  try {
    for (const name of names) {
      const digest = inputsDigest(buildInputs(name, root), root);
      const stamp = stampOf(name, root);
      if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest) continue;
      log(`› Building ${name} (not built from the current sources)…`);
      // The build's output goes to stderr: `npm run diosc -- … --json` prints only its JSON on stdout.
      const result = spawnSync('npm', ['run', 'build', '--workspace', name], { cwd: root, stdio: [0, 2, 2] });
      if (result.status !== 0) {
        throw new Error(`BUILD_FAILED: npm run build --workspace ${name} exited with ${result.status}`);
      }
      writeFileSync(stamp, `${digest}\n`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** `ensureBuilt` for a script: a failed build ends the process with the reason, not a stack. */
export function mustBeBuilt(names, options) {
  try {
    ensureBuilt(names, options);
  } catch (error) {
    console.error(`\n✗ ${error.message}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mustBeBuilt(process.argv.slice(2));
}

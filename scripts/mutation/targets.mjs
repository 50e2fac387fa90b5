// The folders `npm run mutation` mutates, each with the tests that are meant to prove it. Each runs
// on its own (Stryker's incremental file per folder under test-results/mutation/), so one folder can
// be re-run after its tests change without paying for the others. `goal` is the share of killed
// mutants a folder must reach; hub and kit are measured and reported, not yet held to it.
/** The hub's test files of these names (one glob each: the runner gets one comma-separated list). */
function hubSuites(...names) {
  return names.map((name) => `packages/server/test/hub/${name}.test.ts`);
}

export const TARGETS = [
  {
    name: 'catalog',
    mutate: ['packages/protocol/src/catalog/**/*.ts'],
    tests: ['packages/protocol/test/**/*.test.ts', 'packages/server/test/account/core-*.test.ts'],
    goal: 85,
  },
  {
    name: 'account',
    mutate: ['packages/server/src/account/**/*.ts'],
    tests: ['packages/server/test/account/**/*.test.ts', 'packages/server/test/contract/**/*.test.ts'],
    goal: 85,
  },
  {
    name: 'auth',
    mutate: ['packages/server/src/auth/**/*.ts'],
    tests: ['packages/server/test/owner/**/*.test.ts', 'packages/server/test/http/**/*.test.ts'],
    goal: 85,
  },
  {
    name: 'browser-access',
    mutate: ['packages/server/src/browser-access/**/*.ts'],
    tests: ['packages/server/test/browser-access/**/*.test.ts', 'packages/server/test/contract/**/*.test.ts'],
    goal: 85,
  },
  {
    name: 'webmcp',
    // The testing door and the platform doubles behind it are test code (the stand-in for the
    // browser's WebMCP), not the adapter: what they do is what the tests script.
    mutate: [
      'packages/webmcp/src/**/*.ts',
      '!packages/webmcp/src/testing.ts',
      '!packages/webmcp/src/fake-model-context.ts',
    ],
    tests: ['packages/webmcp/test/**/*.test.ts'],
    goal: 85,
  },
  // The hub's guards, each folder against the suites written for it: who may act (visitor
  // sessions), what an owner-given URL may reach and what an outside server's text may carry
  // (outbound), the first-answer-wins decisions (a tool call's life: interrupts, Consensus) and how far back an event
  // stream may resume (events). Run as one target, every mutant of the visitor and stream code that
  // every test passes through ran all of its suites: hours on two cores. The slow fault suites
  // (fuzz, crash, cluster) stay out; the rest of the hub is the `hub` target.
  // A folder's HTTP routes stand in `hub/routes/` and the tool-call store in `hub/store/`: each target
  // names those of its folder.
  {
    name: 'hub-visitors',
    mutate: [
      'packages/server/src/hub/visitors/**/*.ts',
      'packages/server/src/hub/routes/session-routes.ts',
      'packages/server/src/hub/routes/assistant-route.ts',
    ],
    tests: hubSuites('visitors', 'visitor-caps', 'guards/visitor-credentials', 'hostile-input'),
    goal: 85,
  },
  {
    name: 'hub-events',
    mutate: ['packages/server/src/hub/events/**/*.ts', 'packages/server/src/hub/routes/events-route.ts'],
    tests: hubSuites(
      'events',
      'event-bus',
      'event-log-retry',
      'log-watch',
      'hub-store',
      'visitor-caps',
      'guards/event-resume',
    ),
    goal: 85,
  },
  {
    name: 'hub-outbound',
    mutate: ['packages/server/src/hub/outbound/**/*.ts'],
    tests: hubSuites(
      'outbound',
      'guarded-fetch',
      'guarded-lookup',
      'outbound-rebinding',
      'secret-redactor',
      'outside-text-secrets',
      'log-secrets',
      'guards/outbound-names',
    ),
    goal: 85,
  },
  {
    name: 'hub-decisions',
    mutate: [
      'packages/server/src/hub/tool-calls/**/*.ts',
      'packages/server/src/hub/store/tool-calls.ts',
      'packages/server/src/hub/routes/interrupt-routes.ts',
    ],
    tests: [
      ...hubSuites(
        'consensus',
        'interrupts',
        'hostile-input',
        'registry',
        'turn',
        'call-views',
        'guards/answer-kinds',
        'step-close',
        'hub-store',
      ),
      ...hubSuites('files/tool-file', 'files/answer-bytes'),
      // The door itself, a call's audit record, what its metrics and spans say of it, server tools
      // run through it (an MCP server's, one failing with outside text, one delivering a file), a
      // call cut by a crash and a wait closed by another instance's sweeper.
      ...hubSuites('call-door', 'mcp-server-tools', 'outside-text-secrets', 'files/generate-file'),
      ...hubSuites('crash', 'instances', 'deadline-sweeper', 'call-outcomes'),
      'packages/server/test/audit/decisions-audit.test.ts',
      'packages/server/test/observability/metrics.test.ts',
      'packages/server/test/observability/traces.test.ts',
      'packages/server/test/owner/assistants/tools-sitemap.test.ts',
    ],
    goal: 85,
  },
  {
    // What a file upload or download may carry and where its bytes may go.
    name: 'hub-files',
    mutate: [
      'packages/server/src/hub/files/**/*.ts',
      'packages/server/src/hub/routes/upload-route.ts',
      'packages/server/src/hub/routes/download-route.ts',
    ],
    tests: [
      'packages/server/test/hub/files/**/*.test.ts',
      'packages/server/test/hub/guards/upload-parts.test.ts',
    ],
  },
  {
    // The owner API's plugin: the hook that calls the CSRF check and the mutation guard on every
    // owner request (the checks themselves are the `auth` target).
    name: 'owner',
    mutate: ['packages/server/src/owner/plugin.ts'],
    tests: [
      'packages/server/test/owner/mutation-guard.test.ts',
      'packages/server/test/owner/provenance-rules.test.ts',
      'packages/server/test/owner/session.test.ts',
      'packages/server/test/owner/session-rules.test.ts',
      'packages/server/test/owner/bearer-and-mcp.test.ts',
      'packages/server/test/owner/owner-plugin.test.ts',
    ],
  },
  {
    name: 'hub',
    mutate: ['packages/server/src/hub/**/*.ts'],
    tests: ['packages/server/test/hub/**/*.test.ts'],
  },
  // The kit in three runs, because the whole kit (~3,900 lines) takes hours on two cores: its
  // consensus dialog (the trusted-input guard and the approval flow), which holds a security check;
  // its runtime (the session with the hub, and the one path of browser calls — the interrupt runner,
  // intents and raw tools: what runs a call the hub asks for); the rest of it as `kit`.
  {
    name: 'kit-consensus',
    mutate: ['packages/kit/src/consensus/**/*.ts'],
    tests: ['packages/kit/test/**/*.test.ts'],
    goal: 85,
  },
  {
    name: 'kit-runtime',
    mutate: ['packages/kit/src/browser-calls/**/*.ts', 'packages/kit/src/session/**/*.ts'],
    tests: ['packages/kit/test/**/*.test.ts'],
  },
  {
    name: 'kit',
    mutate: [
      'packages/kit/src/**/*.ts',
      '!packages/kit/src/testing/**',
      '!packages/kit/src/consensus/**',
      '!packages/kit/src/browser-calls/**',
      '!packages/kit/src/session/**',
    ],
    tests: ['packages/kit/test/**/*.test.ts'],
  },
];

export function targetNamed(name) {
  const target = TARGETS.find((candidate) => candidate.name === name);
  if (!target) {
    throw new Error(`Unknown mutation target "${name}" (one of: ${TARGETS.map((t) => t.name).join(', ')}).`);
  }
  return target;
}

// The files that hold a security check: every mutant that survives in one of them is listed in the
// mutation report, killed by a new test or recorded in equivalents.json with the reason.
export const SECURITY_CHECKS = [
  {
    name: 'Origin',
    files: ['packages/server/src/auth/request-origin.ts', 'packages/server/src/auth/owner-request.ts'],
  },
  { name: 'CSRF', files: ['packages/server/src/auth/csrf.ts', 'packages/server/src/auth/mutation-guard.ts'] },
  { name: 'grant', files: ['packages/server/src/account/caller-context.ts'] },
  {
    name: 'selection',
    files: [
      'packages/server/src/browser-access/access.ts',
      'packages/server/src/browser-access/browser-caller.ts',
      // The browser's side: a callback of a revoked or replaced registration is refused (isLive).
      'packages/webmcp/src/lifecycle.ts',
    ],
  },
  {
    name: 'receipt binding',
    files: [
      'packages/server/src/browser-access/review-receipts.ts',
      'packages/server/src/account/receipts.ts',
      'packages/server/src/account/replay.ts',
      // The browser's side: the receipt must bind the call as asked; only the reviewer decides.
      'packages/webmcp/src/invocation.ts',
    ],
  },
  { name: 'trusted-input guard', files: ['packages/kit/src/consensus/approval-guard.ts'] },
  // The hub's guards (the hub-outbound, hub-visitors, hub-decisions, hub-events, hub-files targets).
  {
    name: 'outbound guard',
    files: [
      'packages/server/src/hub/outbound/guarded-fetch.ts',
      'packages/server/src/hub/outbound/public-address.ts',
    ],
  },
  {
    name: 'visitor session',
    files: [
      'packages/server/src/hub/visitors/visitor-auth.ts',
      'packages/server/src/hub/visitors/visitor-sessions.ts',
      'packages/server/src/hub/routes/session-routes.ts',
      // A host-signed identity: HS256, `sub` and `exp` required.
      'packages/server/src/hub/visitors/identity.ts',
    ],
  },
  {
    name: 'first answer wins',
    files: [
      'packages/server/src/hub/tool-calls/answer-interrupt.ts',
      'packages/server/src/hub/tool-calls/call-of-visitor.ts',
      'packages/server/src/hub/tool-calls/decide-consensus.ts',
      'packages/server/src/hub/tool-calls/resolve-call.ts',
    ],
  },
  { name: 'Last-Event-ID', files: ['packages/server/src/hub/routes/events-route.ts'] },
  { name: 'multipart single file', files: ['packages/server/src/hub/routes/upload-route.ts'] },
  {
    // The page's copy of a file descriptor is replaced by the stored one; a download needs the owner.
    name: 'file descriptor',
    files: [
      'packages/server/src/hub/files/hub-files.ts',
      'packages/server/src/hub/files/file-descriptor.ts',
      'packages/server/src/hub/routes/download-route.ts',
    ],
  },
  {
    // The kit's side of Consensus: the dialog asks the guard before it decides and binds an
    // activation to one request and mode; the broker settles only the named request, once.
    name: 'approval flow',
    files: [
      'packages/kit/src/consensus/consensus-dialog.ts',
      'packages/kit/src/consensus/consensus-broker.ts',
    ],
  },
];

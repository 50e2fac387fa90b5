/** The n-th write of the crash test: the child sends it, the parent checks for it. */
export function crashWrite(n: number) {
  return {
    collection: 'notes',
    item: `crash-${n}`,
    requestId: `crash-request-${n}`,
    ifNoneMatch: '*' as const,
    content: { body: `write number ${n} `.repeat(20) },
  };
}

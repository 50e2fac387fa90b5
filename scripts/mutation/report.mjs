export function writeMutationReport() {}

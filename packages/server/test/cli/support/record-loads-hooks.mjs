// The loader hooks of record-loads.mjs; they run on the loader's own thread, hence the file.
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.DIOSC_TEST_LOADS_FILE, `${url}\n`);
  return nextLoad(url, context);
}

// `node --import ./record-loads.mjs …`: appends the URL of every module the process loads through
// the ES module loader to the file named by DIOSC_TEST_LOADS_FILE, one a line (test evidence of
// what a command imports, without timing anything).
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url);

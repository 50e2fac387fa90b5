import { describe, expect, it } from 'vitest';
import { answerBytesProblem, type FileDescriptor, type InterruptAnswer } from '../src/index.js';

const FILE: FileDescriptor = {
  fileId: 'f_1',
  filename: 'report.csv',
  format: 'csv',
  downloadUrl: '/api/hub/files/f_1',
  sizeBytes: 12,
};

describe('answerBytesProblem (the hub and the fake hub refuse bytes in an answer)', () => {
  it('refuses data: URLs anywhere and a result file the answer does not name', () => {
    const refused: InterruptAnswer[] = [
      { result: 'data:,hello' },
      { result: ' DATA:text/plain;charset=utf-8,hi' },
      { result: { rows: [{ img: '<img src="data:image/png;base64,iVBORw0KGgo=">' }] } },
      { error: 'failed: data:application/pdf;base64,JVBERi0=' },
      { result: { file: FILE } },
      { result: { file: { ...FILE, downloadUrl: 'https://attacker.example/' } }, file: FILE },
    ];
    for (const answer of refused)
      expect(answerBytesProblem(answer), JSON.stringify(answer)).toBeTypeOf('string');
  });

  it('accepts ordinary text and the kit’s own shape', () => {
    const accepted: InterruptAnswer[] = [
      { result: { exported: true, file: FILE }, file: FILE },
      { result: { exported: true }, file: FILE },
      { result: 'data: 5 rows, all fine' },
      { result: { note: 'metadata:, see the table' } },
      { error: 'no data: the table is empty' },
      { result: null },
    ];
    for (const answer of accepted) expect(answerBytesProblem(answer), JSON.stringify(answer)).toBeNull();
  });
});

// The kit's read_page text, callable from a test in Chromium (`max` and `countNodes` as pageText takes them).
import { pageText } from '@diosc/kit/read-page';

Object.assign(window, {
  pageText: (max?: number, countNodes?: number) => pageText(document.body, max, countNodes),
});

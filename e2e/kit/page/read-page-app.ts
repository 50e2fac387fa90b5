// The kit's read_page text, callable from a test in Chromium.
import { pageText } from '@diosc/kit/read-page';

Object.assign(window, { pageText: () => pageText(document.body) });

// Not built into a page: here so that `tsc` checks `@diosc/kit/testing` against its packed declarations.
import { createFakeHub } from '@diosc/kit/testing';

export const fakeHub = createFakeHub({
  script: async (turn) => {
    const answer = await turn.callTool('highlight_row', { id: '42' });
    turn.say(`Done: ${JSON.stringify(answer)}`);
  },
});

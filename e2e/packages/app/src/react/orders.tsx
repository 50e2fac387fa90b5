import { useDioscTool } from '@diosc/react';
import { useState } from 'react';
import { recordRun } from './runs.js';

/** Owns `count_orders`, whose handler closes over the count the visitor has clicked up to. */
export function Orders() {
  const [count, setCount] = useState(0);
  useDioscTool('count_orders', () => {
    recordRun('count_orders');
    return { count };
  });
  return (
    <main>
      <h1>Orders</h1>
      <button type="button" onClick={() => setCount((value) => value + 1)}>
        Add an order
      </button>
      <output>{count}</output>
    </main>
  );
}

// A React app that installs @diosc/react and @diosc/kit from npm, in StrictMode (its double mount).
import { DioscProvider } from '@diosc/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { hubFromQuery } from '../hub-from-query.js';
import { Orders } from './orders.js';
import { Reports } from './reports.js';
import { Shell } from './shell.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DioscProvider {...hubFromQuery()}>
      <BrowserRouter>
        <Routes>
          <Route path="/react" element={<Shell />}>
            <Route path="orders" element={<Orders />} />
            <Route path="reports" element={<Reports />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </DioscProvider>
  </StrictMode>,
);

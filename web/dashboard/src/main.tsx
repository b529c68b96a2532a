import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { ModeProvider } from './mode.tsx';
import { cssVariablesResolver, theme } from './theme.ts';
import { isSignedOut, makeClient, TRPCProvider } from './trpc.ts';

function Root() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 5_000,
            // A refusal is an answer: retrying "not signed in" or "not found" only delays the page.
            retry: (count, error) => !isSignedOut(error) && count < 1 && !(error as { data?: unknown }).data,
          },
        },
      }),
  );
  const [trpcClient] = useState(makeClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
          <Notifications position="top-right" />
          <ModeProvider>
            <BrowserRouter basename="/dashboard">
              <App />
            </BrowserRouter>
          </ModeProvider>
        </MantineProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);

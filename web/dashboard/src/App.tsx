import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ErrorNotice } from './components/QueryState.tsx';
import { Shell } from './components/Shell.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { isSignedOut, useTRPC } from './trpc.ts';

// Each page is its own chunk: the first route loads the shell and that page only.
const Overview = lazy(() => import('./pages/Overview.tsx'));
const Participants = lazy(() => import('./pages/Participants.tsx'));
const ParticipantDetail = lazy(() => import('./pages/ParticipantDetail.tsx'));
const Events = lazy(() => import('./pages/Events.tsx'));
const Flows = lazy(() => import('./pages/Flows.tsx'));
const Programme = lazy(() => import('./pages/Programme.tsx'));
const Tiers = lazy(() => import('./pages/Tiers.tsx'));
const Streaks = lazy(() => import('./pages/Streaks.tsx'));
const Achievements = lazy(() => import('./pages/Achievements.tsx'));
const Referrals = lazy(() => import('./pages/Referrals.tsx'));
const Rewards = lazy(() => import('./pages/Rewards.tsx'));
const Redemptions = lazy(() => import('./pages/Redemptions.tsx'));
const Webhooks = lazy(() => import('./pages/Webhooks.tsx'));
const Messages = lazy(() => import('./pages/Messages.tsx'));
const Exports = lazy(() => import('./pages/Exports.tsx'));
const Settings = lazy(() => import('./pages/Settings.tsx'));

export const PageLoader = () => (
  <Center h={240}>
    <Loader aria-label="Loading" />
  </Center>
);

/** Signed in → the shell and its pages; signed out → the sign-in form (at any URL, which it returns to). */
export function App() {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { retry: false, staleTime: 60_000 }));
  if (me.isPending) return <PageLoader />;
  if (me.isError && !isSignedOut(me.error))
    return <ErrorNotice error={me.error} onRetry={() => me.refetch()} />;
  if (!me.data) return <SignIn />;
  return (
    <Shell user={me.data}>
      <Suspense fallback={<PageLoader />}>
        <Routes>
          <Route path="/" element={<Overview />} />
          <Route path="/participants" element={<Participants />} />
          <Route path="/participants/:externalId" element={<ParticipantDetail />} />
          <Route path="/events" element={<Events />} />
          <Route path="/flows/*" element={<Flows />} />
          <Route path="/programme" element={<Programme />} />
          <Route path="/tiers" element={<Tiers />} />
          <Route path="/streaks" element={<Streaks />} />
          <Route path="/achievements" element={<Achievements />} />
          <Route path="/referrals/*" element={<Referrals />} />
          <Route path="/rewards/*" element={<Rewards />} />
          <Route path="/redemptions" element={<Redemptions />} />
          <Route path="/webhooks/*" element={<Webhooks />} />
          <Route path="/messages/*" element={<Messages />} />
          <Route path="/exports" element={<Exports />} />
          <Route path="/settings/*" element={<Settings />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </Shell>
  );
}

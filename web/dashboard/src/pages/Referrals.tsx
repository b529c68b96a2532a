import { Route, Routes } from 'react-router';
import { PageHeader } from '../components/PageHeader.tsx';
import { RoutedTabs } from '../components/RoutedTabs.tsx';
import { useMode } from '../mode.tsx';
import { ProgramTab } from './referrals/ProgramForm.tsx';
import { ReferralList } from './referrals/ReferralList.tsx';

/** Referrals (docs/dashboard.md#pages): the referrals of this mode with their cancel, and the programme's settings. */
export default function Referrals() {
  const { mode } = useMode();
  return (
    <>
      <PageHeader
        title="Referrals"
        description={`Participants bring friends with their code, in ${mode} mode: the friend’s qualifying event rewards both.`}
      />
      <RoutedTabs
        base="/referrals"
        label="Referral sections"
        tabs={[
          { path: '', label: 'Referrals' },
          { path: 'program', label: 'Programme' },
        ]}
      />
      <Routes>
        <Route index element={<ReferralList />} />
        <Route path="program" element={<ProgramTab />} />
      </Routes>
    </>
  );
}

import { PageHeader } from '../components/PageHeader.tsx';

export default function ParticipantDetail() {
  return <PageHeader title="ParticipantDetail" />;
}

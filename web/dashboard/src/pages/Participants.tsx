import { PageHeader } from '../components/PageHeader.tsx';

export default function Participants() {
  return <PageHeader title="Participants" />;
}

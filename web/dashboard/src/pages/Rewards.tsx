import { PageHeader } from '../components/PageHeader.tsx';

export default function Rewards() {
  return <PageHeader title="Rewards" />;
}

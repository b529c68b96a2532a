import { PageHeader } from '../components/PageHeader.tsx';

export default function Events() {
  return <PageHeader title="Events" />;
}

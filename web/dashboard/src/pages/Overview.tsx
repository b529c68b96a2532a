import { PageHeader } from '../components/PageHeader.tsx';

export default function Overview() {
  return <PageHeader title="Overview" />;
}

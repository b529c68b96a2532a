import { PageHeader } from '../components/PageHeader.tsx';

export default function Flows() {
  return <PageHeader title="Flows" />;
}

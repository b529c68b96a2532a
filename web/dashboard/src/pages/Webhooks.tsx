import { PageHeader } from '../components/PageHeader.tsx';

export default function Webhooks() {
  return <PageHeader title="Webhooks" />;
}

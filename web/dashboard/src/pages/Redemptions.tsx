import { PageHeader } from '../components/PageHeader.tsx';

export default function Redemptions() {
  return <PageHeader title="Redemptions" />;
}

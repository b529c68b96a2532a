import { PageHeader } from '../components/PageHeader.tsx';

export default function Settings() {
  return <PageHeader title="Settings" />;
}

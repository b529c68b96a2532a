import { PageHeader } from '../components/PageHeader.tsx';

export default function Messages() {
  return <PageHeader title="Messages" />;
}

import { Button, Tabs } from '@mantine/core';
import { Link, Route, Routes, useNavigate } from 'react-router';
import { PageHeader } from '../components/PageHeader.tsx';
import { MessageLog } from './messages/MessageLog.tsx';
import { TemplateList } from './messages/TemplateList.tsx';
import { EditTemplate, NewTemplate } from './messages/TemplatePages.tsx';

/** Messages (docs/api.md#messages): templates that flows send by key, and the log of every message sent. */
export default function Messages() {
  return (
    <Routes>
      <Route index element={<MessagesHome tab="templates" />} />
      <Route path="log" element={<MessagesHome tab="log" />} />
      <Route path="templates/new" element={<NewTemplate />} />
      <Route path="templates/:key" element={<EditTemplate />} />
    </Routes>
  );
}

function MessagesHome({ tab }: { tab: 'templates' | 'log' }) {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Messages"
        description="Templates that flows send by key, and the log of every message rendered from them."
        actions={
          <Button component={Link} to="/messages/templates/new">
            New template
          </Button>
        }
      />
      <Tabs value={tab} onChange={(t) => navigate(t === 'log' ? '/messages/log' : '/messages')} mb="md">
        <Tabs.List>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          <Tabs.Tab value="log">Message log</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'templates' ? <TemplateList /> : <MessageLog />}
    </>
  );
}

import { Navigate, Route, Routes } from 'react-router';
import { PageHeader } from '../components/PageHeader.tsx';
import { RoutedTabs } from '../components/RoutedTabs.tsx';
import { ApiKeys } from './settings/ApiKeys.tsx';
import { EventTypes } from './settings/EventTypes.tsx';
import { IngestEndpoints } from './settings/IngestEndpoints.tsx';
import { Users } from './settings/Users.tsx';

/** Settings (docs/dashboard.md#webhooks-and-settings-pages): API keys, ingest endpoints, event-type schemas and dashboard users. */
export default function Settings() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Credentials, event intake and who can sign in to this workspace."
      />
      <RoutedTabs
        base="/settings"
        label="Settings sections"
        tabs={[
          { path: 'keys', label: 'API keys' },
          { path: 'ingest', label: 'Ingest endpoints' },
          { path: 'event-types', label: 'Event types' },
          { path: 'users', label: 'Dashboard users' },
        ]}
      />
      <Routes>
        <Route index element={<Navigate to="keys" replace />} />
        <Route path="keys" element={<ApiKeys />} />
        <Route path="ingest" element={<IngestEndpoints />} />
        <Route path="event-types" element={<EventTypes />} />
        <Route path="users" element={<Users />} />
        <Route path="*" element={<Navigate to="keys" replace />} />
      </Routes>
    </>
  );
}

import { Route, Routes } from 'react-router';
import { PageHeader } from '../components/PageHeader.tsx';
import { RoutedTabs } from '../components/RoutedTabs.tsx';
import { DeliveryDetail } from './webhooks/DeliveryDetail.tsx';
import { DeliveryLog } from './webhooks/DeliveryLog.tsx';
import { SubscriptionDetail } from './webhooks/SubscriptionDetail.tsx';
import { Subscriptions } from './webhooks/Subscriptions.tsx';

/**
 * Webhooks (docs/api.md#webhooks, docs/webhooks.md): subscriptions and each one's page (why it was
 * disabled, re-enable, recover, secret rotation), the delivery log with its attempts, replay, test sends.
 */
export default function Webhooks() {
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed HTTP POSTs to your endpoints when points change, badges are awarded, rewards are redeemed, flows complete or messages are sent."
      />
      <RoutedTabs
        base="/webhooks"
        label="Webhook sections"
        tabs={[
          { path: '', label: 'Endpoints' },
          { path: 'deliveries', label: 'Delivery log' },
        ]}
      />
      <Routes>
        <Route index element={<Subscriptions />} />
        <Route path="endpoints/:id" element={<SubscriptionDetail />} />
        <Route path="deliveries" element={<DeliveryLog />} />
        <Route path="deliveries/:id" element={<DeliveryDetail />} />
      </Routes>
    </>
  );
}

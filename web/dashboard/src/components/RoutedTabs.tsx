import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

/**
 * Tabs that are sub-routes: each tab is a path under `base` (deep links and the back button
 * work), the active one is read from the URL.
 */
export function RoutedTabs({
  base,
  tabs,
  label,
}: {
  base: string;
  tabs: { path: string; label: string }[];
  /** The tab list's accessible name. */
  label: string;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const rest = pathname.startsWith(base) ? pathname.slice(base.length).replace(/^\//, '') : '';
  const active = tabs.find((t) => t.path && (rest === t.path || rest.startsWith(`${t.path}/`)))?.path ?? '';
  // A tab's value cannot be empty: the index route (path '') is '.' here.
  return (
    <Tabs value={active || '.'} onChange={(v) => navigate(v && v !== '.' ? `${base}/${v}` : base)} mb="lg">
      <Tabs.List aria-label={label}>
        {tabs.map((t) => (
          <Tabs.Tab key={t.path} value={t.path || '.'}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

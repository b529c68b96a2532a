import { useQuery } from '@tanstack/react-query';
import { useMode } from '../mode.tsx';
import { useTRPC } from '../trpc.ts';

/** Event types seen or defined in this mode (the newest 200), offered while typing one: any other may be typed. */
export function useEventTypeSuggestions(): string[] {
  const trpc = useTRPC();
  const { mode } = useMode();
  const types = useQuery(trpc.eventTypes.list.queryOptions({ mode, limit: 200 }, { staleTime: 60_000 }));
  return types.data?.data.map((t) => t.key) ?? [];
}

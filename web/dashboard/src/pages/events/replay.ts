/** The fixes a replay sends (docs/api.md#replay): only what the form changed. */
export type ReplayFixes = { event_type?: string; payload?: Record<string, unknown> };

/**
 * The replay form's values as the service's fixes: an empty type keeps the event's own; the
 * payload is sent only when it was edited, and must then be a JSON object (a field error here,
 * before anything is sent). The service names what else is wrong (e.g. an invalid type).
 */
export function replayFixes(
  eventType: string,
  payloadText: string,
  originalText: string,
): { fixes: ReplayFixes } | { errors: Record<string, string> } {
  const fixes: ReplayFixes = {};
  if (eventType.trim()) fixes.event_type = eventType.trim();
  if (payloadText.trim() !== originalText.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payloadText);
    } catch {
      return { errors: { payload: 'Not valid JSON' } };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return { errors: { payload: 'Must be a JSON object, e.g. { "total": 42 }' } };
    fixes.payload = parsed as Record<string, unknown>;
  }
  return { fixes };
}

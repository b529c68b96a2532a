// Generated from the svc OpenAPI document by `npm run generate` (openapi-typescript). Do not edit.
export interface paths {
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description **Authentication:** API key with ability `events:read`.
         *
         *     The event log, newest first. Filters are carried into `links.next` and `links.prev`.
         */
        get: operations["listEvents"];
        put?: never;
        /**
         * Send an event
         * @description **Authentication:** API key with ability `events:write`.
         *
         *     Records one event and answers 202 once it is durably stored (the event and its processing job commit together); flows, points and badges follow asynchronously. A normal event answers `status: received`.
         */
        post: operations["createEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event to an ingest endpoint
         * @description **Authentication:** Ingest endpoint key in the path and an `X-Signature` header; no bearer key.
         *
         *     The same body and pipeline as `POST /v1/events`, authenticated by the endpoint key in the path and an HMAC signature of the raw body instead of a bearer key. The event is stored in the endpoint's mode with `source: ingest:<endpoint id>`; the endpoint's `default_event_type` fills a missing `event_type`.
         *
         *     Signing in a shell:
         *
         *     ```sh
         *     t=$(date +%s)
         *     sig=$(printf '%s.%s' "$t" "$body" | openssl dgst -sha256 -hmac "$secret" -hex | sed 's/^.* //')
         *     curl -X POST "$BASE/v1/ingest/$key" -H "X-Signature: t=$t,v1=$sig" \
         *       -H "Content-Type: application/json" --data-raw "$body"
         *     ```
         */
        post: operations["ingestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a batch of events
         * @description **Authentication:** API key with ability `events:write`.
         *
         *     Records 1 to 1000 events in one transaction and answers 202 once they are durably stored: all of them, or none when one item is invalid (a 422 naming it, e.g. `events.3.participant`). Each item goes through the same pipeline as `POST /v1/events` (shorthand, quarantine, its own `idempotency_key`); the answer has one result per item, in request order. An item repeating an idempotency key already stored, or one earlier in the batch, answers the original with `replayed: true` and stores nothing. The body may be up to 5 MiB whatever `MAX_BODY_BYTES` says.
         */
        post: operations["createEventBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a quarantined event
         * @description **Authentication:** API key with ability `events:write`.
         *
         *     Stores a new event with the fixes given (`replay_of` = this one) and sends it through the ingest pipeline: its payload is checked against its type's schema again, so it may be quarantined again. It keeps the original's participant (external id), `occurred_at` and `source`. This event stays quarantined and gets `replayed_as`. An event is replayed once: asking again with the same fixes (a retry) answers the same new event with `Idempotent-Replayed: true`; with other fixes, or for an event that is not quarantined, 409 `invalid_state`.
         */
        post: operations["replayEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay quarantined events
         * @description **Authentication:** API key with ability `events:write`.
         *
         *     Replays, unchanged, every quarantined event not yet replayed of the range (received in [`since`, `until`), of `event_type`; all when absent), oldest first, each as in `POST /v1/events/{id}/replay`: for after an event type's schema was fixed. Events quarantined for a missing type or participant are left alone (they would be quarantined again); replay those one by one with a fix. Each event is replayed once, also when calls run at the same time.
         */
        post: operations["replayEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show an event
         * @description **Authentication:** API key with ability `events:read`.
         *
         *     One event of the key’s workspace and mode, with the flow runs it started.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Simulate an event
         * @description **Authentication:** API key with ability `events:write`.
         *
         *     What the event would do now — the flows that would run and each action’s points (after multipliers and caps, or held pending), badges and messages, the streaks, the level and the balance after it — evaluated by the engine itself in a transaction that is rolled back: nothing is stored, sent or created (not even an unknown participant). With `flow`, an unsaved flow runs after the saved ones. An event `POST /v1/events` would quarantine is a 422 naming the field.
         */
        post: operations["simulateEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List event types
         * @description **Authentication:** API key with ability `flows:read`.
         *
         *     Event types seen or defined in this workspace and mode, newest first.
         */
        get: operations["listEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-types/{key}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set or drop an event type’s payload schema
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     The body is the JSON Schema (draft 2020-12) that payloads of this type must satisfy; creates the type if it has not been seen. A body whose only member is `schema` is the wrapper `{ "schema": <JSON Schema or null> }` instead (`null` drops the schema; `schema` is not a JSON Schema keyword, so the two cannot be confused); a top-level `key` is a 422 (the key comes from the path). Events received afterwards that fail the schema are quarantined with a reason naming the failing path. A schema that is not valid JSON Schema is a 422 on field `schema`.
         */
        put: operations["putEventTypeSchema"];
        post?: never;
        /**
         * Drop an event type’s payload schema
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Payloads of this type are no longer checked (the same as `PUT` with `{ "schema": null }`). An unknown type is a 404.
         */
        delete: operations["dropEventTypeSchema"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List ingest endpoints
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["listIngestEndpoints"];
        put?: never;
        /**
         * Create an ingest endpoint
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     An endpoint in the creating key’s mode, for senders that cannot hold an API key. The signing `secret` is returned only in this response.
         */
        post: operations["createIngestEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show an ingest endpoint
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["getIngestEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete an ingest endpoint
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Its key stops working at once; the events it brought in are kept.
         */
        delete: operations["deleteIngestEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description **Authentication:** No authentication.
         *
         *     OpenAPI 3.1, generated from the zod schemas the routes validate with. Browsable at `/docs`.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description **Authentication:** No authentication.
         *
         *     The process is up; touches nothing else.
         */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description **Authentication:** No authentication.
         *
         *     Ready to serve: the database answers.
         */
        get: operations["readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description **Authentication:** No authentication.
         *
         *     Request counts and latency by route, queue depth by queue, and Node process metrics.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/message-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List message templates
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["listMessageTemplates"];
        put?: never;
        /**
         * Create a message template
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     `key` is unique per workspace and mode (a duplicate is a 422 on `key`); SMS templates have no subject. Tokens: `{{participant.external_id}}`, `{{participant.email}}`, `{{participant.phone}}`, `{{participant.name}}`, `{{participant.balance}}`, `{{participant.lifetime_points}}`, `{{payload.<path>}}` (dots walk objects and arrays), `{{event.type}}`. Substitution is plain text in one pass (a token inside a value is not expanded), never evaluated; values are HTML-escaped in e-mail bodies; the subject loses CR/LF; unknown tokens render empty.
         */
        post: operations["createMessageTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/message-templates/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a message template
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["getMessageTemplate"];
        put?: never;
        post?: never;
        /**
         * Delete a message template
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Recorded messages keep their rendered text; a flow step naming the key fails from now on with a clear error.
         */
        delete: operations["deleteMessageTemplate"];
        options?: never;
        head?: never;
        /**
         * Change a message template
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Replaces the given fields (`subject: null` clears it); the key cannot change. Messages already queued keep the text they were rendered with.
         */
        patch: operations["updateMessageTemplate"];
        trace?: never;
    };
    "/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The messages log
         * @description **Authentication:** API key with ability `flows:read`.
         *
         *     Messages queued by flows’ `send_message` steps, newest first; filter by `status`, `template` (key) and `participant` (external id).
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a message
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List flows
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["listFlows"];
        put?: never;
        /**
         * Create a flow
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Actions run in order: `award_points` (`points`: a positive integer or JSON Logic over the context, floored; ≤ 0 skips the step; the active points multiplier applies), `award_badge` (`badge` key, optional `tier`; an undefined key is created; a key+tier is held once), `send_message` (`template` key). Conditions: JSON Logic (https://jsonlogic.com) over `{ event: { type, occurred_at }, payload, participant: { external_id, email, name, balance, lifetime_points } }`, plus `{"event_count": "<event type>"}` (events of that type processed for the participant, this one included). The `method` operation is not available. An unknown operation is a 422. Exactly one of `event_type` and `trigger`: `trigger: { type: "inactivity", after: <ISO 8601 duration>, event_types?: [..] }` runs the flow once for each participant with no event (of those types) for `after`, and again only after a new such event; its conditions see `event: { type: "inactivity", occurred_at: <end of the idle spell> }` and an empty payload (docs/engagement.md#inactivity).
         */
        post: operations["createFlow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a flow
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["getFlow"];
        put?: never;
        post?: never;
        /**
         * Delete a flow
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     It stops matching at once; its runs stay readable.
         */
        delete: operations["deleteFlow"];
        options?: never;
        head?: never;
        /**
         * Change a flow
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Replaces the given fields. Events processed later use the new definition; recorded runs keep their steps.
         */
        patch: operations["updateFlow"];
        trace?: never;
    };
    "/v1/flow-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List flow runs
         * @description **Authentication:** API key with ability `flows:read`.
         *
         *     Newest first; filter by `flow_id`, `participant` (external id), `event_id` and `status`. An inactivity run has `event_id` null.
         */
        get: operations["listFlowRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/flow-runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a flow run
         * @description **Authentication:** API key with ability `flows:read`.
         */
        get: operations["getFlowRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/badges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The badge catalogue
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Any valid key. Badges defined here or created by a flow’s first award, by key.
         */
        get: operations["listBadges"];
        put?: never;
        /**
         * Define a badge
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Creates the badge (201), or redefines an existing key (200: name, description, image and tiers replaced).
         */
        post: operations["defineBadge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/achievements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s achievements
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Every badge with criteria, by key: the participant’s progress (count or sum of their processed events matching the criteria, in the window ending now), the target, the percentage (100 once completed) and when they were awarded it (null: not yet).
         */
        get: operations["listParticipantAchievements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/badges/{key}/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Award an achievement to those who already meet it
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Criteria apply to events processed after they are set; this awards the badge to every participant who meets them now (window ending now) and does not hold it, each once, with `badge.awarded`. `dry_run`: only the count (200). Otherwise a job is queued (202). A badge without criteria: 409 `invalid_state`.
         */
        post: operations["backfillBadge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description **Authentication:** API key with ability `webhooks:read`.
         */
        get: operations["listWebhookSubscriptions"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     Results of the key’s mode whose type is listed (or all, with `*`) are delivered to `url`. The URL passes the egress guard first (refused: 422 `validation_error` on `url`; it is never called). A `whsec_…` secret is generated when none is given; it is returned only here.
         *
         *     Every delivery is a POST of `{ id, type, tenant, created_at, data }` (`tenant` is the workspace slug) with `Content-Type: application/json`, `X-Svc-Delivery-Id`, `X-Svc-Event-Type`, the Standard Webhooks headers `webhook-id` (the delivery id), `webhook-timestamp` and `webhook-signature: v1,<base64>` (HMAC-SHA256 of `"<webhook-id>.<webhook-timestamp>.<raw body>"`: any `standardwebhooks` library verifies it, see docs/webhooks.md#verifying-a-delivery), and `X-Svc-Signature: t=<unix seconds>,v1=<64 lowercase hex>` = HMAC-SHA256 of `"<t>.<raw body>"` keyed with the subscription secret (Stripe’s verifier accepts it). Verify against the raw body, in constant time, and refuse a timestamp more than 300 s from now. During a secret rotation each header carries one signature per secret, the new one first. The body bytes are fixed when the delivery is created and identical on every retry; the timestamps are fresh per attempt.
         */
        post: operations["createWebhookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a webhook subscription
         * @description **Authentication:** API key with ability `webhooks:read`.
         */
        get: operations["getWebhookSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     It receives nothing more and its pending deliveries become `dead` at once. Its deliveries stay in the log.
         */
        delete: operations["deleteWebhookSubscription"];
        options?: never;
        head?: never;
        /**
         * Change, pause or re-enable a webhook subscription
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     Any of `url` (egress-checked again), `event_types`, `headers`, `description` and `status` (`active` or `paused`; `disabled` is set by the service only). Pausing makes its pending deliveries `dead` at once (an attempt already in flight may finish; nothing new is sent); `active` resumes a paused subscription or re-enables a disabled one (clearing `disabled_reason`, `disabled_at` and its failing streak) and delivers new results again; dead deliveries can then be replayed or recovered. Changes apply to the next attempt of every delivery; the body of an existing delivery never changes.
         */
        patch: operations["updateWebhookSubscription"];
        trace?: never;
    };
    "/v1/webhook-subscriptions/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test delivery now
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     One real signed POST of type `webhook.test` (`data: { subscription_id, message }`) to the subscription’s URL, through the egress guard, with its custom headers and the same signature headers as a delivery, in either mode and also when paused or disabled (a 410 here does not disable it). Nothing is stored; the outcome is the answer (a failed send is still a 200 with `ok: false`).
         */
        post: operations["testWebhookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-subscriptions/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook subscription’s signing secret
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     Replaces the signing secret with `secret` (or a generated `whsec_…`). The old one keeps signing beside the new one for `grace_seconds` (default a day, at most a week; 0 stops it at once): meanwhile `X-Svc-Signature` is `t=…,v1=<new>,v1=<old>` and `webhook-signature` is `v1,<new> v1,<old>`, so a receiver can switch secrets without losing a delivery. At most 5 old secrets are kept (the oldest is dropped). The new secret is returned only here (docs/webhooks.md#rotation).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-subscriptions/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recover a webhook subscription’s dead deliveries
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     Every `dead` delivery of the subscription created in [`since`, `until`] (`until` defaults to now) goes back to `pending` with its attempt count reset, oldest first, and is sent again with the same body. `since` reaches back 14 days at most (older: 422 on `since`). A paused or disabled subscription is 409 `invalid_state`: set its status to `active` first, then recover since it went down (docs/webhooks.md#recover).
         */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook deliveries
         * @description **Authentication:** API key with ability `webhooks:read`.
         *
         *     The delivery log, newest first. Filters are carried into `links.next` and `links.prev`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a webhook delivery with its attempts
         * @description **Authentication:** API key with ability `webhooks:read`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a webhook delivery
         * @description **Authentication:** API key with ability `webhooks:write`.
         *
         *     A `dead` or `succeeded` delivery goes back to `pending`, due now, with its attempt count reset; the same body is sent again (same `id`). Any other status, or a paused or deleted subscription, is 409 `invalid_state`.
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook event catalogue
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Every type a subscription can receive (by name in `event_types`, or `*`), with a description, the JSON Schema of its `data` and an example. The same types, with the whole delivery body and its headers, are in this document’s `webhooks`. `webhook.test` is not listed: only the test endpoint sends it (`data: { subscription_id, message }`).
         */
        get: operations["listWebhookEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List participants
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Newest first. `search` matches the external id, e-mail or name, case-insensitively, anywhere in the value (a trigram index answers it).
         */
        get: operations["listParticipants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a participant
         * @description **Authentication:** API key with ability `participants:read`.
         */
        get: operations["getParticipant"];
        put?: never;
        post?: never;
        /**
         * Erase a participant
         * @description **Authentication:** API key with ability `participants:erase`.
         *
         *     PII cleared, the external id replaced by a random pseudonym, event payloads and message recipients scrubbed; ledger amounts, badges and redemptions kept. The old id then answers 404, and a new event with it creates a fresh participant.
         */
        delete: operations["eraseParticipant"];
        options?: never;
        head?: never;
        /**
         * Replace a participant’s PII
         * @description **Authentication:** API key with ability `participants:write`.
         *
         *     Each given field replaces the stored value; `null` clears it; absent fields stay. (Events only ever fill empty fields.)
         */
        patch: operations["updateParticipant"];
        trace?: never;
    };
    "/v1/participants/{external_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export everything held about a participant
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     The subject-access export (GDPR article 15): the profile (current tier included), ledger, open point lots, pending grants, badges, achievement progress, streaks, tier moves, referrals as advocate or friend, the referral code (null when none was ever made; the export makes none), redemptions (with their codes), events, messages and the webhook deliveries of results that name the participant, in one JSON document, each item in the shape of its own REST read. Each list section holds 10,000 items at most (the newest, or the first in its read’s order); a section cut there is listed in `truncated`. An erased participant’s old id is a 404.
         */
        get: operations["exportParticipant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s summary
         * @description **Authentication:** API key with ability `participants:read`.
         */
        get: operations["getParticipantSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s points ledger
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Entries newest first. The balance always equals the sum of the entries.
         */
        get: operations["listParticipantLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/badges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s badges
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Every key+tier held (each at most once), newest award first.
         */
        get: operations["listParticipantBadges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s open lots
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     The balance, pending points, every open lot in the order debits consume them (soonest expiry first, never-expiring last, oldest first on ties), and open points grouped by expiry instant (the next 12). The balance always equals the sum of the lots’ `remaining`.
         */
        get: operations["getParticipantPoints"];
        put?: never;
        /**
         * Adjust points
         * @description **Authentication:** API key with ability `points:adjust`.
         *
         *     A manual credit or debit, posted as a ledger entry with source `adjustment`. An unknown participant is created. A debit past the balance is 422 `insufficient_points` (with `balance` and `cost_points`). Idempotent (see Idempotency): concurrent duplicates are charged once.
         */
        post: operations["adjustPoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/ledger/{entry_id}/reversal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reverse a ledger entry
         * @description **Authentication:** API key with ability `points:adjust`.
         *
         *     Posts a new entry of the opposite sign with `reverses_entry_id` set (entries are never edited). An entry is reversed at most once (422 `already_reversed`); a reversal that would make the balance negative is 422 `insufficient_points`. Reversing earned points also lowers lifetime points and leaderboard scores.
         */
        post: operations["reverseLedgerEntry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a participant token
         * @description **Authentication:** API key with ability `participants:write`.
         *
         *     A short-lived token a browser widget may hold instead of an API key: it reads its own participant (balance, summary, badges, ledger), the rewards catalogue, badges and leaderboards over GraphQL, and subscribes to its own live updates. It is bound to the workspace, the mode and the key that minted it: revoking or rotating that key ends it.
         */
        post: operations["mintParticipantToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/program": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Programme settings
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Time zone, points expiry, expiry notice, pending period and earning caps of the key’s workspace and mode (the defaults until changed).
         */
        get: operations["getProgram"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change programme settings
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Replaces the given fields (`null` clears `points_expiry` or `pending_for`). Durations are ISO 8601 (`P12M`, `P30D`, `PT30S`). A change applies to credits and awards made after it; open lots keep their expiry.
         */
        patch: operations["updateProgram"];
        trace?: never;
    };
    "/v1/participants/{external_id}/pending-points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s pending grants
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Flow awards waiting for `available_at`, and those already activated or cancelled; newest first.
         */
        get: operations["listParticipantPendingPoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pending-points/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a pending grant now
         * @description **Authentication:** API key with ability `points:adjust`.
         *
         *     `pending` → `activated`: the points are credited now (their expiry counted from now). Any other move is 409 `invalid_state`.
         */
        post: operations["activatePendingPoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pending-points/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending grant
         * @description **Authentication:** API key with ability `points:adjust`.
         *
         *     `pending` → `cancelled`: the points are never credited (a returned order). Any other move is 409 `invalid_state`.
         */
        post: operations["cancelPendingPoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tier programme
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     The levels, the qualification window and the downgrade policy; `null` when no programme runs.
         */
        get: operations["getTiers"];
        /**
         * Replace the tier programme
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Levels are ordered by `threshold`, the first at 0; keys are unique. The tier job then moves every participant up at once to what the new levels support; a level no longer supported is evaluated for a downgrade at its window’s next evaluation. A new window recounts qualifying points from the ledger.
         */
        put: operations["putTiers"];
        post?: never;
        /**
         * End the tier programme
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     The tier job moves every participant off their level (`programme_change`, recorded in their history). No programme runs: 404.
         */
        delete: operations["deleteTiers"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tiers/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a programme change
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Participants per level now and under the proposed programme once applied and evaluated, and the moves between them. Nothing is changed.
         */
        post: operations["previewTiers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/tier-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s tier moves
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Every move of their level, newest first, with its reason and qualifying points.
         */
        get: operations["listParticipantTierHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/tier": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a participant’s level by hand
         * @description **Authentication:** API key with ability `points:adjust`.
         *
         *     Recorded in their history as `manual` with the note in `reason`; the downgrade rules then apply to it as to any level. A key the programme does not have: 422.
         */
        put: operations["setParticipantTier"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Streak definitions
         * @description **Authentication:** API key with ability `flows:read`.
         *
         *     The running streaks by key; archived ones with `include_archived=true`.
         */
        get: operations["listStreaks"];
        put?: never;
        /**
         * Define a streak
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     An event of one of `event_types` extends it once per period (day, ISO week or month) of its `occurred_at`, in the participant’s time zone. Freezes cover missed periods one each. A key already used: 422.
         */
        post: operations["createStreak"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/streaks/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A streak definition
         * @description **Authentication:** API key with ability `flows:read`.
         *
         *     Archived ones too.
         */
        get: operations["getStreak"];
        put?: never;
        post?: never;
        /**
         * Archive a streak
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Events stop extending it and reads leave it out; participants’ states and history stay.
         */
        delete: operations["archiveStreak"];
        options?: never;
        head?: never;
        /**
         * Change a streak
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Name, event types and freezes; participants keep their lengths. The frequency cannot change.
         */
        patch: operations["updateStreak"];
        trace?: never;
    };
    "/v1/participants/{external_id}/streaks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s streaks
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Every running streak as it stands now in their time zone: length (0 once it can no longer be saved), longest, the current period, whether it was extended in it, `at_risk`, freezes left, `expires_at` and the last 30 periods’ outcomes.
         */
        get: operations["listParticipantStreaks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/referrals/program": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The referral programme
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     The qualifying event type and window, the hold, the friend’s and advocate’s actions, the advocate limit and whether codes attribute (docs/referrals.md#the-programme). None yet: 404.
         */
        get: operations["getReferralProgram"];
        /**
         * Replace the referral programme
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Replaces it whole: `advocate_limit` left out is none, `active` left out is true. Durations are ISO 8601 (`P30D`, `PT1H`); `hold` may be `PT0S`. A badge an action awards that is not defined yet is created, named after its key, as a flow’s is. The change applies to referrals made and qualified after it (docs/referrals.md#the-programme).
         */
        put: operations["putReferralProgram"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Referrals
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Every referral of the key’s workspace and mode, newest first, by advocate and status: `pending` until the friend qualifies or the window ends (`expired`), `qualified` during the hold, then `rewarded` or, cancelled, `clawed_back`; `blocked` with its `reason` when refused at attribution (docs/referrals.md#reads).
         */
        get: operations["listReferrals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/referrals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A referral
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Its advocate and friend, status, block reason and the times of each step (docs/referrals.md#reads).
         */
        get: operations["getReferral"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/referrals/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claw back a referral during its hold
         * @description **Authentication:** API key with ability `points:adjust`.
         *
         *     `qualified` → `clawed_back`: the advocate’s points still pending are cancelled (they leave `pending_points` and are never credited) and their badges are not awarded; the friend keeps what they got. Any other status is 409 `invalid_state` (docs/referrals.md#hold-and-claw-back).
         */
        post: operations["cancelReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/referral-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s referral code
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     `REF-` and 8 characters of an alphabet without look-alikes, unique in the workspace and mode; made on the first read and never changed. A new participant’s first event carrying it in `participant.referral_code` makes a referral (docs/referrals.md#codes).
         */
        get: operations["getParticipantReferralCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaderboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List leaderboards
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     The built-in all-time `points` board first, then the configured ones.
         */
        get: operations["listLeaderboards"];
        put?: never;
        /**
         * Define a leaderboard
         * @description **Authentication:** API key with ability `flows:write`.
         *
         *     Scores are the points earned in the period: the UTC week (from Monday), the UTC month, or all time (= lifetime points). `points` is reserved; a taken key is a 422.
         */
        post: operations["createLeaderboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaderboards/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A leaderboard’s top places
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Competition ranking (1, 1, 3); ties in order of joining. Only positive scores are placed. No PII: external ids and scores only.
         */
        get: operations["getLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leaderboards/{key}/participants/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A participant’s rank and score
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Rank = 1 + the number of participants with a strictly higher score (a score of 0 ranks last).
         */
        get: operations["getLeaderboardStanding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/redemptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List redemptions
         * @description **Authentication:** API key with ability `participants:read`.
         *
         *     Newest first; filters are carried into the links.
         */
        get: operations["listRedemptions"];
        put?: never;
        /**
         * Redeem a reward
         * @description **Authentication:** API key with ability `redemptions:write`.
         *
         *     Validates and changes balance and stock in one transaction: concurrent redemptions never oversell stock, hand out a code twice or overdraw a balance. Checks in this order: unknown participant or reward (404, the participant is not created) → `reward_unavailable` → `tier_required` (below the reward’s `min_tier`, with `min_tier`) → `out_of_stock` → `insufficient_points` (with `balance` and `cost_points`). `physical` starts `pending`; code-backed, digital-asset and multiplier rewards are `fulfilled` at once. For an `external` reward the debit commits first, then the endpoint is called through the egress guard; on failure the redemption is cancelled, the debit reversed, the stock restored and the answer is 422 `external_fulfilment_failed` (with `redemption_id`). Idempotency: the first call answers 201; a retry with the same key answers 200 with the original redemption (or its original failure) and `Idempotent-Replayed: true`; concurrent duplicates charge once.
         */
        post: operations["createRedemption"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rewards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The rewards catalogue
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Active, unarchived rewards of the key’s workspace and mode, oldest first (not paginated).
         */
        get: operations["listRewards"];
        put?: never;
        /**
         * Create a reward
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     An external reward’s `endpoint_url` must pass the egress guard (else 422 on `config.endpoint_url`).
         */
        post: operations["createReward"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rewards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a reward
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Archived rewards too, so redemption history can name them.
         */
        get: operations["getReward"];
        put?: never;
        post?: never;
        /**
         * Archive a reward
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     It leaves the catalogue and cannot be redeemed; its redemptions stay; its name is free again.
         */
        delete: operations["archiveReward"];
        options?: never;
        head?: never;
        /**
         * Change a reward
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     Replaces the given fields; `type` cannot change. A new `stock` moves `stock_remaining` by the same difference (from unlimited it starts at the new stock).
         */
        patch: operations["updateReward"];
        trace?: never;
    };
    "/v1/rewards/{id}/codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import codes into a reward’s pool
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     For `voucher_code` and `digital_asset` rewards. JSON `{ codes: [...] }`, or a `text/plain` body (one code per line) or a `text/csv` body (RFC 4180, quoted fields allowed, first column used; a first row reading `code` is a header). Whitespace is trimmed, blank lines ignored, and codes already in the pool or repeated are skipped and counted. At most 200,000 codes and 16 MiB per request; all or nothing.
         */
        post: operations["importRewardCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rewards/{id}/codes/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate codes into a reward’s pool
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     `prefix` + `length` characters drawn uniformly by a CSPRNG from `23456789ABCDEFGHJKMNPQRSTUVWXYZ` (no 0/O, 1/I/L look-alikes). A draw that collides with a code already in the pool is drawn again, so exactly `count` new codes are added.
         */
        post: operations["generateRewardCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rewards/{id}/test-fulfilment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test an external reward’s endpoint
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     Fires the live request through the egress guard with a sample participant (`test-participant`, `test-participant@example.com`, `Test Participant`) and a fresh `test_…` `{{reference}}`; nothing is debited or stored. Send `config` to try unsaved settings. The outcome is in the body, not the status.
         */
        post: operations["testRewardFulfilment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/participants/{external_id}/rewards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalogue for one participant
         * @description **Authentication:** Any valid API key; no ability needed.
         *
         *     Each reward with `can_afford`, and the participant’s spendable `meta.balance`.
         */
        get: operations["listParticipantRewards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/redemptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a redemption
         * @description **Authentication:** API key with ability `participants:read`.
         */
        get: operations["getRedemption"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/redemptions/{id}/fulfil": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark a physical redemption fulfilled
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     `pending` → `fulfilled`. Any other move (or another type) is 409 `invalid_state`.
         */
        post: operations["fulfilRedemption"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/redemptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a physical redemption
         * @description **Authentication:** API key with ability `rewards:write`.
         *
         *     `pending` → `cancelled`: the points come back by a reversal ledger entry that references the debit, and the stock unit is restored. Any other move is 409 `invalid_state`.
         */
        post: operations["cancelRedemption"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List exports
         * @description **Authentication:** API key with ability `exports:write`.
         *
         *     Newest first; expired exports are gone.
         */
        get: operations["listExports"];
        put?: never;
        /**
         * Request an export
         * @description **Authentication:** API key with ability `exports:write`.
         *
         *     Queues a file of every row of `resource` in the key’s workspace and mode created in [`since`, `until`) (`until` defaults to now), oldest first. Poll `GET /v1/exports/{id}` until `status` is `completed`, then fetch `download_url`. Files are kept 7 days.
         */
        post: operations["createExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show an export
         * @description **Authentication:** API key with ability `exports:write`.
         *
         *     Unknown or expired: 404. A completed export carries a fresh `download_url`, valid one hour.
         */
        get: operations["getExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exports/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export’s file
         * @description **Authentication:** API key with ability `exports:write`.
         *
         *     Streams the file (`text/csv; charset=utf-8` or `application/x-ndjson`) as an attachment. With the `token` of `download_url` no key is needed (and a key is not looked at); an unknown, expired or forged token, like an unknown or expired export, is a 404. An export not completed yet is a 409 `invalid_state`.
         */
        get: operations["downloadExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "badge.awarded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A badge was awarded
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["badgeAwardedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "points.changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A ledger entry was posted
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["pointsChangedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "points.expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Points will expire soon
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["pointsExpiringWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "reward.redeemed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A reward was redeemed
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["rewardRedeemedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "flow.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A flow run ended
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["flowCompletedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A message was sent
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["messageSentWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "tier.changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A participant changed tier level
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["tierChangedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "streak.extended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A streak grew
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["streakExtendedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "streak.broken": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A streak ended
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["streakBrokenWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "referral.qualified": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A referral qualified
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["referralQualifiedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "referral.rewarded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A referral’s advocate was rewarded
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["referralRewardedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A webhook subscription was disabled
         * @description Sent to each active subscription of the workspace and mode whose `event_types` name this type or `*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the same on every retry and replay; verify the signature over them before parsing.
         */
        post: operations["webhookDisabledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        SimulateEventInput: {
            /** @description The event, as `POST /v1/events` takes it (shorthand included). Its `idempotency_key` is ignored: nothing is stored, so a simulation is never a duplicate. */
            event: components["schemas"]["EventBody"];
            /** @description An unsaved flow, as `POST /v1/flows` takes it, evaluated as if saved and active (after the saved flows of the event's type); its `event_type` must be the event's. */
            flow?: components["schemas"]["FlowInput"];
        };
        FlowInput: {
            name: string;
            event_type?: string;
            trigger?: components["schemas"]["InactivityTrigger"];
            conditions?: {
                [key: string]: unknown;
            } | null;
            actions: ({
                /** @constant */
                type: "award_points";
                points: number | {
                    [key: string]: unknown;
                };
                reason?: string;
                /** @example P12M */
                pending_for?: string;
                cap?: components["schemas"]["EarningCap"];
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            } | {
                /** @constant */
                type: "send_message";
                template: string;
            })[];
            active?: boolean;
            max_runs_per_participant?: number | null;
        };
        InactivityTrigger: {
            /** @constant */
            type: "inactivity";
            /**
             * @description How long without an event before the flow runs, e.g. P30D or PT12H.
             * @example P30D
             */
            after: string;
            /** @description The event types that count as activity; absent: every type. */
            event_types?: string[];
        };
        EarningCap: {
            /**
             * @description A calendar period in the programme’s time zone; weeks start Monday.
             * @enum {string}
             */
            period: "day" | "week" | "month" | "year";
            max_points: number;
        };
        MessageTemplateCreate: {
            key: string;
            /** @enum {string} */
            channel: "email" | "sms";
            /** @description E-mail only. Tokens are substituted (not HTML-escaped); CR/LF never reach the header. */
            subject?: string | null;
            /** @description Text with `{{participant.name}}`-style tokens: participant.external_id|email|phone|name|balance|lifetime_points, payload.<path>, event.type. Values are substituted as plain text (HTML-escaped in e-mail bodies), never evaluated; unknown tokens render empty. */
            body: string;
        };
        MessageTemplateUpdate: {
            /** @enum {string} */
            channel?: "email" | "sms";
            /** @description E-mail only. Tokens are substituted (not HTML-escaped); CR/LF never reach the header. */
            subject?: string | null;
            /** @description Text with `{{participant.name}}`-style tokens: participant.external_id|email|phone|name|balance|lifetime_points, payload.<path>, event.type. Values are substituted as plain text (HTML-escaped in e-mail bodies), never evaluated; unknown tokens render empty. */
            body?: string;
        };
        /**
         * @description `pending` (live, waiting for its send), `sent` (the transport accepted it), `simulated` (test mode: rendered and stored, never sent), `skipped` (no address for the channel), `failed` (see `error`; includes "send outcome unknown" when a worker died mid-send: never re-sent).
         * @enum {string}
         */
        MessageStatus: "pending" | "sent" | "simulated" | "failed" | "skipped";
        FlowUpdate: {
            name?: string;
            event_type?: string;
            trigger?: components["schemas"]["InactivityTrigger"];
            conditions?: {
                [key: string]: unknown;
            } | null;
            actions?: ({
                /** @constant */
                type: "award_points";
                points: number | {
                    [key: string]: unknown;
                };
                reason?: string;
                /** @example P12M */
                pending_for?: string;
                cap?: components["schemas"]["EarningCap"];
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            } | {
                /** @constant */
                type: "send_message";
                template: string;
            })[];
            active?: boolean;
            max_runs_per_participant?: number | null;
        };
        BadgeInput: {
            key: string;
            name: string;
            description?: string | null;
            image_url?: string | null;
            tiers?: string[];
            /** @description Makes the badge an achievement, awarded once when a processed event brings a participant to the target (docs/engagement.md#achievements). Absent or null: awarded by flows only. */
            criteria?: components["schemas"]["AchievementCriteriaInput"] | null;
        };
        AchievementCriteriaInput: {
            /**
             * @description The event type counted.
             * @example order.completed
             */
            event_type: string;
            /**
             * @description `count`: the events; `sum`: their numeric payload `field` (non-numbers count 0).
             * @enum {string}
             */
            aggregate: "count" | "sum";
            /**
             * @description The payload path summed (`sum` only), dots splitting it: "amount", "order.total".
             * @example amount
             */
            field?: string;
            /**
             * @description `all_time`, or an ISO 8601 duration: only events whose `occurred_at` lies in that long a time ending at the event being processed (at now, for progress) count.
             * @example all_time
             * @example P30D
             */
            window: string;
            /** @description The progress that completes the achievement (an integer for `count`). */
            target: number;
            /** @description JSON Logic over the event: `var` of `payload.<path>` or `event.type`, constants, `==`, `===`, `!=`, `!==` (exact JSON equality), `<`, `<=`, `>`, `>=` (numbers only), `and`, `or`, `!`, `in` (a list of constants). Only matching events count. */
            where?: unknown;
            /** @description The tier awarded (one of the badge’s tiers); absent: the badge without a tier. */
            tier?: string;
        };
        BadgeBackfillInput: {
            /** @description True: only count who would be awarded (200), change nothing. */
            dry_run?: boolean;
        };
        ProgramUpdate: {
            /**
             * @description Calendar boundaries (rounding, caps) are taken in it.
             * @example Europe/Paris
             */
            timezone?: string;
            /** @description Null: points never expire. */
            points_expiry?: components["schemas"]["PointsExpiry"] | null;
            /**
             * @description How long before a lot expires `points.expiring` fires.
             * @example P12M
             */
            expiry_notice?: string;
            /** @description How long flow-awarded points wait before they can be spent; null: at once. */
            pending_for?: string | null;
            /** @description The most a participant can earn from flows per calendar period. */
            earning_caps?: components["schemas"]["EarningCap"][];
        };
        PointsExpiry: {
            /**
             * @description `fixed`: each credit expires `after` its credit time, rounded up by `round_to`. `activity`: all unspent points expire `after` the last credit from a flow or a positive adjustment.
             * @enum {string}
             */
            mode: "fixed" | "activity";
            /** @example P12M */
            after: string;
            /**
             * @description Rounds a `fixed` expiry up to the end of its day, month, quarter or year.
             * @default none
             * @enum {string}
             */
            round_to: "none" | "day" | "month" | "quarter" | "year";
        };
        TierProgramme: {
            qualification: {
                /**
                 * @description `lifetime`: every qualifying point ever. `rolling`: those of the last `duration`. `calendar`: those of the current `period` in the programme’s time zone.
                 * @enum {string}
                 */
                window: "lifetime" | "rolling" | "calendar";
                /**
                 * @description `rolling` only: the window’s length, e.g. P12M.
                 * @example P12M
                 */
                duration?: string;
                /**
                 * @description `calendar` only.
                 * @enum {string}
                 */
                period?: "month" | "quarter" | "year";
            };
            downgrade: {
                /**
                 * @description `none`: never. `one_down`: one level per evaluation. `to_qualified`: to the level the window supports.
                 * @enum {string}
                 */
                policy: "none" | "one_down" | "to_qualified";
                /**
                 * @description How long a participant below their level’s threshold keeps it. Default: none.
                 * @example P12M
                 */
                grace?: string;
            };
            /** @description Ordered by threshold; everyone starts at the first. */
            levels: components["schemas"]["TierLevel"][];
        };
        TierLevel: {
            key: string;
            name: string;
            /** @description Qualifying points that reach the level; the first level’s is 0. */
            threshold: number;
            /**
             * @description Multiplies flow awards while at this level (1–10, two decimals; rounded down).
             * @default 1
             */
            earn_multiplier: number;
            /** @default null */
            description: string | null;
        };
        TierAssignment: {
            key: string;
            /** @description The operator’s note, kept in the history. */
            reason: string;
        };
        StreakInput: {
            key: string;
            name: string;
            event_types: string[];
            /**
             * @description A calendar day, an ISO week (Monday first) or a month, in the participant’s time zone.
             * @enum {string}
             */
            frequency: "daily" | "weekly" | "monthly";
            freezes?: {
                /** @description Freezes a participant starts with. */
                initial: number;
                /** @description The most they can hold. */
                max: number;
                /** @description A freeze is earned every this many extended periods, up to `max`. */
                earn_every?: number;
            };
        };
        /** @description The frequency cannot change (periods would change meaning): archive and create another. */
        StreakUpdate: {
            name?: string;
            event_types?: string[];
            freezes?: {
                /** @description Freezes a participant starts with. */
                initial: number;
                /** @description The most they can hold. */
                max: number;
                /** @description A freeze is earned every this many extended periods, up to `max`. */
                earn_every?: number;
            };
        };
        ReferralProgramInput: {
            /** @description The friend’s first event of this type within `qualify_within` qualifies the referral. */
            qualifying_event_type: string;
            /**
             * @description How long after attribution a referral can qualify; then it expires.
             * @example P12M
             */
            qualify_within: string;
            /**
             * @description How long the advocate’s points stay pending after qualification (a cancel claws them back).
             * @example P14D
             */
            hold: string;
            /** @description Run for the friend at once when the referral qualifies. */
            friend_actions: ({
                /** @constant */
                type: "award_points";
                points: number;
                reason?: string;
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            })[];
            /** @description The advocate’s reward: points pending during the hold, badges when it ends. */
            advocate_actions: ({
                /** @constant */
                type: "award_points";
                points: number;
                reason?: string;
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            })[];
            /** @description The most referrals an advocate can make per calendar period; more are `blocked`. */
            advocate_limit?: {
                /**
                 * @description A calendar period in the programme’s time zone; weeks start Monday.
                 * @enum {string}
                 */
                period: "day" | "week" | "month" | "year";
                max: number;
            } | null;
            /** @description False: codes attribute nothing; referrals already made go on. */
            active?: boolean;
        };
        /**
         * @description `voucher_code`: one code from the pool per redemption. `digital_asset`: a pool code when a pool is loaded, else `config.asset_code` / `config.asset_url`. `physical`: starts `pending`, fulfilled or cancelled later. `points_multiplier`: a perk multiplying future flow awards. `external`: the code is fetched from `config.endpoint_url` at redemption time.
         * @enum {string}
         */
        RewardType: "voucher_code" | "digital_asset" | "physical" | "points_multiplier" | "external";
        /**
         * @description Rows of one kind, of the key’s workspace and mode. `ledger`, `badges` (awards), `lots` (every point lot, open, spent or expired), `tiers` (every move of a participant’s tier level), `streaks` (each participant’s state in each streak) and `achievements` (awards of badges with criteria) carry their participant’s `external_id`, `referrals` their advocate’s and friend’s; erased participants appear under their pseudonym only.
         * @enum {string}
         */
        ExportResource: "participants" | "ledger" | "events" | "redemptions" | "badges" | "messages" | "webhook_deliveries" | "lots" | "tiers" | "streaks" | "achievements" | "referrals";
        /**
         * @description `csv`: RFC 4180 with a header row, nested objects as dotted columns, formula-like text cells prefixed with `'`. `jsonl`: one JSON object per line, in the REST shape.
         * @enum {string}
         */
        ExportFormat: "csv" | "jsonl";
        /**
         * @description `pending` (queued), `running`, `completed` (the file is whole and downloadable), `failed` (see `error`).
         * @enum {string}
         */
        ExportStatus: "pending" | "running" | "completed" | "failed";
        /** @description Immutable: entries are never updated or deleted (the database refuses). */
        LedgerEntry: {
            id: number;
            /** @description Signed: credits positive, debits negative. */
            points: number;
            balance_after: number;
            reason: string | null;
            /** @enum {string} */
            source: "flow" | "adjustment" | "redemption" | "reversal" | "expiry";
            /** @description What caused it (flow run, redemption, …). */
            reference: string | null;
            /** @description Set on a reversal: the entry it reverses. */
            reverses_entry_id: number | null;
            idempotency_key: string | null;
            expires_at: string | null;
            /** @description Flow awards: the part an earning cap cut; 0 otherwise. */
            capped_points: number;
            /**
             * Format: date-time
             * @description When it was posted.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
        };
        Redemption: {
            id: number;
            reward_id: number;
            participant: {
                external_id: string;
            };
            /** @enum {string} */
            status: "pending" | "fulfilled" | "cancelled";
            /** @description What was handed out. */
            fulfilment: {
                type: components["schemas"]["RewardType"];
                /** @description The voucher, pool or external code. */
                code?: string;
                /** @description A digital asset’s URL from its config. */
                url?: string;
                multiplier?: {
                    factor: number;
                    /**
                     * Format: date-time
                     * @description When the perk stops applying.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    expires_at: string;
                };
            };
            /** @description Points debited. */
            cost_points: number;
            idempotency_key: string | null;
            /** @description Made with a `svc_test_` key. */
            is_sandbox: boolean;
            /**
             * Format: date-time
             * @description When it was made.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last status change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        /**
         * @description `completed`; `skipped` (every step skipped: points ≤ 0, badge already held, no address; or, with no steps, an idle spell whose conditions were not met or whose participant reached the run limit); `failed` (a step failed: retried with the event, resumed at that step; final once the event is `failed`).
         * @enum {string}
         */
        FlowRunStatus: "completed" | "failed" | "skipped";
        TierRef: {
            key: string;
            name: string;
        };
        TierChanged: {
            participant: {
                external_id: string;
            };
            from: components["schemas"]["TierRef"] | null;
            to: components["schemas"]["TierRef"] | null;
            /** @enum {string} */
            reason: "qualified" | "downgrade" | "manual" | "programme_change";
            qualifying_points: number;
        };
        Referral: {
            id: string;
            code: string;
            advocate: {
                external_id: string;
            };
            friend: {
                external_id: string;
            };
            /** @enum {string} */
            status: "pending" | "qualified" | "rewarded" | "blocked" | "expired" | "clawed_back";
            /** @description Why a `blocked` referral was refused; null otherwise. */
            reason: ("self_referral" | "same_email" | "same_phone" | "existing_participant" | "limit_reached") | null;
            created_at: string;
            /** @description When a pending referral expires unqualified. */
            expires_at: string | null;
            qualified_at: string | null;
            /** @description When the hold ends and the advocate’s pending points become available. */
            reward_available_at: string | null;
            rewarded_at: string | null;
            clawed_back_at: string | null;
        };
        /** @description HTTP 400. The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
        InvalidRequestError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invalid_request_error";
            message: string;
        };
        /** @description HTTP 401. No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
        AuthenticationError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "authentication_error";
            message: string;
        };
        /** @description HTTP 403. The key is valid but lacks the ability the route needs. */
        PermissionError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "permission_error";
            message: string;
            /** @description The ability the operation needs. */
            required_ability?: string;
        };
        /** @description HTTP 404. Unknown route or resource. */
        NotFoundError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "not_found";
            message: string;
        };
        /** @description HTTP 409. An idempotency key was reused with a different request body. */
        IdempotencyConflictError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "idempotency_conflict";
            message: string;
        };
        /** @description HTTP 409. The resource is not in a state that allows this action. */
        InvalidStateError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "invalid_state";
            message: string;
            /** @description The current status of the resource, when it has one. */
            status?: string;
        };
        /** @description HTTP 413. The body is larger than `MAX_BODY_BYTES` (default 262144). */
        PayloadTooLargeError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payload_too_large";
            message: string;
            /** @description The body size limit. */
            limit_bytes: number;
        };
        /** @description HTTP 422. A field failed validation; `errors` lists each one. */
        ValidationError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "validation_error";
            message: string;
            errors: components["schemas"]["FieldError"][];
        };
        FieldError: {
            /**
             * @description Dot path of the offending field (`(body)` for the body as a whole).
             * @example participant.external_id
             */
            field: string;
            message: string;
        };
        /** @description HTTP 422. The participant's balance does not cover the cost. */
        InsufficientPointsError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "insufficient_points";
            message: string;
            /** @description Spendable points. */
            balance: number;
            /** @description What the reward costs. */
            cost_points: number;
        };
        /** @description HTTP 422. No stock or no codes left. */
        OutOfStockError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "out_of_stock";
            message: string;
        };
        /** @description HTTP 422. The reward is inactive or outside its start/end window. */
        RewardUnavailableError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "reward_unavailable";
            message: string;
        };
        /** @description HTTP 422. The external fulfilment endpoint failed; the debit was reversed, stock restored and the redemption cancelled. */
        ExternalFulfilmentFailedError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "external_fulfilment_failed";
            message: string;
            /** @description The redemption, now `cancelled` and refunded. */
            redemption_id: number;
        };
        /** @description HTTP 422. The ledger entry has already been reversed. */
        AlreadyReversedError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "already_reversed";
            message: string;
            /** @description The entry that was already reversed. */
            entry_id: number;
        };
        /** @description HTTP 422. The reward needs a tier level (`min_tier`) above the participant's. */
        TierRequiredError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "tier_required";
            message: string;
            /** @description The lowest level (its key) that may redeem it. */
            min_tier: string;
        };
        /** @description HTTP 429. The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
        RateLimitError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "rate_limit_error";
            message: string;
        };
        /** @description HTTP 500. Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
        ApiError: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "api_error";
            message: string;
        };
        EventBody: {
            event_type?: string | null;
            type?: string | null;
            participant?: (string | {
                external_id?: string | null;
                email?: string | null;
                phone?: string | null;
                name?: string | null;
                timezone?: string | null;
                referral_code?: string | null;
            }) | null;
            payload?: {
                [key: string]: unknown;
            } | null;
            /** @description ISO 8601 timestamp; defaults to now, and an unparseable value falls back to now. */
            occurred_at?: unknown;
            idempotency_key?: string | null;
        };
        EventAccepted: {
            /**
             * Format: uuid
             * @description The stored event (the original one when the request was a replay).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            event_id: string;
            status: components["schemas"]["EventStatus"];
        };
        /**
         * @description `received` on acceptance, then `processed`, or `failed` once processing retries run out; `quarantined` events (missing type or participant, or a payload failing the type schema) are never processed.
         * @enum {string}
         */
        EventStatus: "received" | "processed" | "failed" | "quarantined";
        /** @description A page of Event objects, newest first. */
        EventPage: {
            data: components["schemas"]["Event"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        Event: {
            /**
             * Format: uuid
             * @description Event id (UUIDv7, time-ordered).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /** @description Null only on a quarantined event. */
            event_type: string | null;
            participant: {
                external_id: string | null;
            };
            payload: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When it happened (the time of receipt when absent or unparseable).
             * @example 2026-11-22T10:00:00.000Z
             */
            occurred_at: string;
            /**
             * Format: date-time
             * @description When the service accepted it.
             * @example 2026-11-22T10:00:00.000Z
             */
            received_at: string;
            status: components["schemas"]["EventStatus"];
            /** @description Why a quarantined event is not processed. */
            quarantine_reason: string | null;
            idempotency_key: string | null;
            /**
             * @description `api` (POST /v1/events) or `ingest:<ingest endpoint id>`.
             * @example api
             */
            source: string;
            /** @description True when received with a `svc_test_` key or test-mode endpoint. */
            is_sandbox: boolean;
            replay_of: string | null;
            replayed_as: string | null;
        };
        PageLinks: {
            /** @description Always null. */
            first: null;
            /** @description Always null. */
            last: null;
            /**
             * Format: uri
             * @description The previous (newer) page, or null.
             */
            prev: string | null;
            /**
             * Format: uri
             * @description The next (older) page; null on the last page. Carries the filters.
             */
            next: string | null;
        };
        PageMeta: {
            /**
             * Format: uri
             * @description Base URL of the collection.
             */
            path: string;
            /** @description Page size used. */
            per_page: number;
            /** @description Opaque; pass back as `cursor`. */
            next_cursor: string | null;
            /** @description Opaque; pass back as `cursor`. */
            prev_cursor: string | null;
        };
        EventBatchAccepted: {
            data: components["schemas"]["EventBatchItemAccepted"][];
        };
        EventBatchItemAccepted: {
            /** @description The item's position in `events` (from 0). */
            index: number;
            /**
             * Format: uuid
             * @description The stored event (the original one when the item was a duplicate).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            event_id: string;
            status: components["schemas"]["EventStatus"];
            /** @description True when the item repeated an idempotency key already stored, or one earlier in the same batch: nothing new was stored for it and `event_id` is the original. */
            replayed: boolean;
        };
        EventsReplayed: {
            /** @description How many quarantined events this call replayed (each as a new event); one replayed by a concurrent call is not counted again. */
            replayed: number;
        };
        EventDetail: {
            /**
             * Format: uuid
             * @description Event id (UUIDv7, time-ordered).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /** @description Null only on a quarantined event. */
            event_type: string | null;
            participant: {
                external_id: string | null;
            };
            payload: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When it happened (the time of receipt when absent or unparseable).
             * @example 2026-11-22T10:00:00.000Z
             */
            occurred_at: string;
            /**
             * Format: date-time
             * @description When the service accepted it.
             * @example 2026-11-22T10:00:00.000Z
             */
            received_at: string;
            status: components["schemas"]["EventStatus"];
            /** @description Why a quarantined event is not processed. */
            quarantine_reason: string | null;
            idempotency_key: string | null;
            /**
             * @description `api` (POST /v1/events) or `ingest:<ingest endpoint id>`.
             * @example api
             */
            source: string;
            /** @description True when received with a `svc_test_` key or test-mode endpoint. */
            is_sandbox: boolean;
            replay_of: string | null;
            replayed_as: string | null;
            /** @description Why processing failed (status `failed`), e.g. the flow step that failed on every attempt. */
            error: string | null;
            processed_at: string | null;
            /** @description Flow runs this event started, oldest first (see `GET /v1/flow-runs/{id}`). */
            flow_runs: components["schemas"]["FlowRun"][];
        };
        FlowRun: {
            /**
             * Format: uuid
             * @description Flow run id (UUIDv7); the `reference` of its ledger entries.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /** Format: uuid */
            flow_id: string;
            /**
             * Format: uuid
             * @description The event that ran it; null for an inactivity run (docs/engagement.md#inactivity).
             */
            event_id: string | null;
            participant: {
                external_id: string;
            };
            status: components["schemas"]["FlowRunStatus"];
            steps: {
                /** @description `award_points`, `award_badge`, `send_message` (or `conditions` when they could not be evaluated). */
                action: string;
                /**
                 * @description `pending`: not reached (an earlier step failed); `capped`: an award an earning cap cut to nothing (docs/points.md#earning-caps).
                 * @enum {string}
                 */
                status: "completed" | "failed" | "skipped" | "pending" | "capped";
                /** @description `{ points, multiplier, entry_id }`, `{ badge, tier, already_held? }` or `{ message_id, status }`. */
                result: {
                    [key: string]: unknown;
                } | null;
                error: string | null;
            }[];
            /**
             * Format: date-time
             * @description When the run was first recorded.
             * @example 2026-11-22T10:00:00.000Z
             */
            started_at: string;
            finished_at: string | null;
        };
        Simulation: {
            /**
             * @description What processing would end in: `failed` when a step fails (the engine would retry the event, then store it as `failed`).
             * @enum {string}
             */
            status: "processed" | "failed";
            /** @description The failure, as the event would record it; null. */
            error: string | null;
            participant: {
                external_id: string;
                /** @description False: the event would create the participant. */
                exists: boolean;
            };
            /** @description Every active flow of the event's type in the order they run, then the unsaved `flow`. */
            flows: components["schemas"]["SimulatedFlow"][];
            /** @description Every badge the participant would receive: flows' awards, achievements reached, a referral's friend actions. */
            badges: {
                key: string;
                tier: string | null;
            }[];
            /** @description The participant's running streaks after the event, by key. */
            streaks: {
                key: string;
                length: number;
            }[];
            /** @description Level keys before and after the event; null without a tier programme. */
            tier: {
                from: string | null;
                to: string | null;
            };
            /** @description Spendable points before and after the event (pending points excluded). */
            balance: {
                before: number;
                after: number;
            };
        };
        SimulatedFlow: {
            /**
             * Format: uuid
             * @description The saved flow; null for the unsaved `flow` of the request.
             */
            flow_id: string | null;
            name: string;
            /** @description Whether the flow would run: false when its conditions do not hold or its `max_runs_per_participant` is reached (then `actions` is empty). */
            matched: boolean;
            actions: components["schemas"]["SimulatedAction"][];
            /** @description Why the flow's conditions could not be evaluated. */
            error?: string;
        };
        SimulatedAction: {
            /** @enum {string} */
            type: "award_points" | "award_badge" | "send_message";
            /**
             * @description As the flow run would record the step (`capped`: an earning cap left nothing); `not_run`: an earlier step failed.
             * @enum {string}
             */
            status: "completed" | "skipped" | "capped" | "failed" | "not_run";
            /** @description award_points: the points credited, or held pending, after multipliers and caps (0 when skipped or capped). */
            points?: number;
            /** @description award_points: the part an earning cap cut (0 when none did). */
            capped_points?: number;
            /** @description award_points: the points would wait in a pending grant, not be spendable yet. */
            pending?: boolean;
            /**
             * Format: date-time
             * @description award_points, pending: when the grant would become spendable.
             * @example 2026-11-22T10:00:00.000Z
             */
            available_at?: string;
            /** @description award_badge: the badge key. */
            badge?: string;
            /** @description award_badge: the badge tier, or null. */
            tier?: string | null;
            /** @description send_message: the template key (the message is rendered, never sent). */
            template?: string;
            /** @description Why the step would fail. */
            error?: string;
        };
        /** @description A page of EventType objects, newest first. */
        EventTypePage: {
            data: components["schemas"]["EventType"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        EventType: {
            /** @example order.completed */
            key: string;
            /** @description JSON Schema (draft 2020-12) that payloads are checked against, or null. */
            schema: {
                [key: string]: unknown;
            } | null;
            events_count: number;
            /**
             * Format: date-time
             * @description When the type was first seen or defined.
             * @example 2026-11-22T10:00:00.000Z
             */
            first_seen_at: string;
        };
        IngestEndpointCreated: {
            /**
             * Format: uuid
             * @description Ingest endpoint id.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            name: string;
            /**
             * @description Goes in the path: `POST /v1/ingest/{key}`. `ing_` + 32 letters and digits.
             * @example ing_3kTq9ZxW1bYc7VnP0aLm5RsD8fGh2JeU
             */
            key: string;
            /** @description Used for events that arrive without `event_type`. */
            default_event_type: string | null;
            mode: components["schemas"]["Mode"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Signing secret for `X-Signature`. Shown only in this response; it cannot be read again.
             * @example whsec_9f8e7d6c5b4a39281706f5e4d3c2b1a0
             */
            secret: string;
        };
        /**
         * @description Data dimension, chosen by the key prefix: `svc_live_` → `live`, `svc_test_` → `test` (sandbox).
         * @enum {string}
         */
        Mode: "live" | "test";
        /** @description A page of IngestEndpoint objects, newest first. */
        IngestEndpointPage: {
            data: components["schemas"]["IngestEndpoint"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        IngestEndpoint: {
            /**
             * Format: uuid
             * @description Ingest endpoint id.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            name: string;
            /**
             * @description Goes in the path: `POST /v1/ingest/{key}`. `ing_` + 32 letters and digits.
             * @example ing_3kTq9ZxW1bYc7VnP0aLm5RsD8fGh2JeU
             */
            key: string;
            /** @description Used for events that arrive without `event_type`. */
            default_event_type: string | null;
            mode: components["schemas"]["Mode"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
        };
        Deleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        MessageTemplate: {
            id: number;
            /**
             * @description What a flow’s `send_message` action names.
             * @example welcome
             */
            key: string;
            /** @enum {string} */
            channel: "email" | "sms";
            /** @description E-mail only. */
            subject: string | null;
            body: string;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        /** @description A page of MessageTemplate objects, newest first. */
        MessageTemplatePage: {
            data: components["schemas"]["MessageTemplate"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        MessageTemplateDeleted: {
            key: string;
            /** @constant */
            deleted: true;
        };
        /** @description A page of Message objects, newest first. */
        MessagePage: {
            data: components["schemas"]["Message"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        Message: {
            /**
             * Format: uuid
             * @description Message id (UUIDv7, time-ordered).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /** @description The template key it was rendered from. */
            template: string;
            /** @enum {string} */
            channel: "email" | "sms";
            participant: {
                external_id: string;
            } | null;
            /** @description E-mail address or phone number; null when skipped. */
            to: string | null;
            status: components["schemas"]["MessageStatus"];
            subject: string | null;
            /** @description As rendered when the message was queued. */
            body: string;
            error: string | null;
            /** @description True in test mode (never sent). */
            is_sandbox: boolean;
            /** @description Transport attempts made. */
            attempts: number;
            sent_at: string | null;
            /**
             * Format: date-time
             * @description When it was queued.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
        };
        Flow: {
            /**
             * Format: uuid
             * @description Flow id (UUIDv7).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            name: string;
            /**
             * @description The event type that runs it; null for an inactivity flow.
             * @example order.completed
             */
            event_type: string | null;
            /** @description An inactivity flow’s trigger (docs/engagement.md#inactivity); null for an event flow. */
            trigger: components["schemas"]["FlowTrigger"] | null;
            /** @description JSON Logic over `{ event, payload, participant }` plus `event_count`; null = always. An inactivity run sees `event: { type: "inactivity", occurred_at: <end of the idle spell> }` and an empty payload. */
            conditions: {
                [key: string]: unknown;
            } | null;
            actions: ({
                /** @constant */
                type: "award_points";
                points: number | {
                    [key: string]: unknown;
                };
                reason?: string;
                /** @example P12M */
                pending_for?: string;
                cap?: components["schemas"]["EarningCapOutput"];
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            } | {
                /** @constant */
                type: "send_message";
                template: string;
            })[];
            active: boolean;
            max_runs_per_participant: number | null;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        /** @description An inactivity flow: it runs once for each participant with no event (of `event_types`; null: any) for `after`. */
        FlowTrigger: {
            /** @constant */
            type: "inactivity";
            /** @example P30D */
            after: string;
            event_types: string[] | null;
        };
        /** @description A page of Flow objects, newest first. */
        FlowPage: {
            data: components["schemas"]["Flow"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        /** @description A page of FlowRun objects, newest first. */
        FlowRunPage: {
            data: components["schemas"]["FlowRun"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        BadgeList: {
            data: components["schemas"]["BadgeListItem"][];
        };
        BadgeListItem: {
            /** @example vip */
            key: string;
            name: string;
            description: string | null;
            image_url: string | null;
            tiers: string[];
            /** @description What awards it as an achievement (docs/engagement.md#achievements); null: flows only. */
            criteria: components["schemas"]["AchievementCriteria"] | null;
            /** @description Participants holding it (any tier). */
            holders_count: number;
            /** @description Its rarity: holders as a percentage of the workspace’s participants in this mode, to 2 decimals (0 with no participants). */
            holders_percent: number;
        };
        AchievementCriteria: {
            event_type: string;
            /** @enum {string} */
            aggregate: "count" | "sum";
            /** @description The payload path summed; null for `count`. */
            field: string | null;
            /** @description `all_time` or an ISO 8601 duration. */
            window: string;
            target: number;
            /** @description JSON Logic over the event; null: every event of the type. */
            where: unknown;
            /** @description The tier awarded; null: the badge without a tier. */
            tier: string | null;
        };
        Badge: {
            /** @example vip */
            key: string;
            name: string;
            description: string | null;
            image_url: string | null;
            tiers: string[];
            /** @description What awards it as an achievement (docs/engagement.md#achievements); null: flows only. */
            criteria: components["schemas"]["AchievementCriteria"] | null;
        };
        AchievementList: {
            data: components["schemas"]["Achievement"][];
        };
        Achievement: {
            badge: {
                key: string;
                /** @description The tier the criteria award; null: none. */
                tier: string | null;
                name: string;
            };
            /** @description The count or sum of their matching processed events in the window ending now. */
            progress: number;
            target: number;
            /** @description min(100, floor(progress × 100 / target)); 100 once completed. */
            percent: number;
            completed_at: string | null;
        };
        BadgeBackfillDryRun: {
            /** @description Participants who meet the criteria now (window ending now) and do not hold the badge. */
            would_award: number;
        };
        BadgeBackfillQueued: {
            /** @constant */
            queued: true;
        };
        WebhookSubscriptionCreated: {
            /**
             * Format: uuid
             * @description Subscription id (UUIDv7).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /** Format: uri */
            url: string;
            event_types: ("badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled" | "*")[];
            /** @description Custom headers sent with every delivery. */
            headers: {
                [key: string]: string;
            };
            description: string | null;
            /** @enum {string} */
            status: "active" | "paused" | "disabled";
            /** @description Why the service disabled it (`failing` | `gone`); null unless `disabled`. */
            disabled_reason: ("failing" | "gone") | null;
            disabled_at: string | null;
            mode: components["schemas"]["Mode"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
            /**
             * @description The signing secret. Shown only in this response; it cannot be read again.
             * @example whsec_9f8e7d6c5b4a39281706f5e4d3c2b1a0
             */
            secret: string;
        };
        /** @description A page of WebhookSubscription objects, newest first. */
        WebhookSubscriptionPage: {
            data: components["schemas"]["WebhookSubscription"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        WebhookSubscription: {
            /**
             * Format: uuid
             * @description Subscription id (UUIDv7).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /** Format: uri */
            url: string;
            event_types: ("badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled" | "*")[];
            /** @description Custom headers sent with every delivery. */
            headers: {
                [key: string]: string;
            };
            description: string | null;
            /** @enum {string} */
            status: "active" | "paused" | "disabled";
            /** @description Why the service disabled it (`failing` | `gone`); null unless `disabled`. */
            disabled_reason: ("failing" | "gone") | null;
            disabled_at: string | null;
            mode: components["schemas"]["Mode"];
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        WebhookTestResult: {
            /** @description The receiver answered 2xx. */
            ok: boolean;
            /** @description Null when no response came back. */
            status_code: number | null;
            /** @description At most the first 1 KiB of the answer. */
            response_snippet: string | null;
            duration_ms: number;
            /** @description Why it failed: a non-2xx/3xx status, a timeout, a refused connection or an egress block. */
            error: string | null;
        };
        WebhookSecretRotated: {
            /**
             * @description The new signing secret. Shown only in this response; it cannot be read again.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7pXtbOyB+/w=
             */
            secret: string;
            /**
             * Format: date-time
             * @description When the replaced secret stops signing (now, when `grace_seconds` was 0).
             * @example 2026-11-22T10:00:00.000Z
             */
            previous_expires_at: string;
        };
        WebhookDeliveriesRecovered: {
            /** @description Dead deliveries put back to `pending`. */
            recovered: number;
        };
        /** @description A page of WebhookDelivery objects, newest first. */
        WebhookDeliveryPage: {
            data: components["schemas"]["WebhookDelivery"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        WebhookDelivery: {
            /**
             * Format: uuid
             * @description Delivery id: the body’s `id` and the `X-Svc-Delivery-Id` header. Receivers dedupe on it.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /**
             * Format: uuid
             * @description The subscription it goes to.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            subscription_id: string;
            /**
             * Format: uuid
             * @description The result (outbox row) it carries; one result fans out to every matching subscription.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            result_id: string;
            /** @enum {string} */
            type: "badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled";
            status: components["schemas"]["WebhookDeliveryStatus"];
            /** @description Attempts since creation or the last replay. */
            attempt_count: number;
            next_attempt_at: string | null;
            last_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /**
             * Format: date-time
             * @description When the result was committed.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        /**
         * @description `pending` (waiting for its next attempt), `succeeded` (a 2xx came back), `dead` (the last retry failed, or the subscription was paused or deleted), `simulated` (test mode: logged, never POSTed).
         * @enum {string}
         */
        WebhookDeliveryStatus: "pending" | "succeeded" | "dead" | "simulated";
        WebhookDeliveryDetail: {
            /**
             * Format: uuid
             * @description Delivery id: the body’s `id` and the `X-Svc-Delivery-Id` header. Receivers dedupe on it.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            /**
             * Format: uuid
             * @description The subscription it goes to.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            subscription_id: string;
            /**
             * Format: uuid
             * @description The result (outbox row) it carries; one result fans out to every matching subscription.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            result_id: string;
            /** @enum {string} */
            type: "badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled";
            status: components["schemas"]["WebhookDeliveryStatus"];
            /** @description Attempts since creation or the last replay. */
            attempt_count: number;
            next_attempt_at: string | null;
            last_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /**
             * Format: date-time
             * @description When the result was committed.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
            /** @description The body as sent (its exact bytes are what is signed). */
            payload: {
                id: string;
                type: string;
                tenant: string;
                created_at: string;
                data: {
                    [key: string]: unknown;
                };
            };
            /** @description Every attempt, oldest first (replays included). */
            attempts: components["schemas"]["WebhookAttempt"][];
        };
        WebhookAttempt: {
            /** @description 1 for the initial attempt; a replay starts again at 1. */
            number: number;
            /**
             * Format: date-time
             * @description When the POST started.
             * @example 2026-11-22T10:00:00.000Z
             */
            attempted_at: string;
            /** @description Null on a timeout, connection error or egress block. */
            status_code: number | null;
            /** @description At most the first 1 KiB of the answer. */
            response_snippet: string | null;
            duration_ms: number;
            error: string | null;
        };
        WebhookEventTypeList: {
            data: components["schemas"]["WebhookEventType"][];
        };
        WebhookEventType: {
            /**
             * @description The body’s `type` and `X-Svc-Event-Type`.
             * @example points.changed
             */
            type: string;
            description: string;
            /** @description JSON Schema (draft 2020-12) of the delivery body’s `data`. */
            schema: {
                [key: string]: unknown;
            };
            /** @description A `data` of this type. */
            example: {
                [key: string]: unknown;
            };
        };
        /** @description A page of Participant objects, newest first. */
        ParticipantPage: {
            data: components["schemas"]["Participant"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        Participant: {
            /** @description The caller’s own identifier. */
            external_id: string;
            email: string | null;
            phone: string | null;
            name: string | null;
            /** @description IANA time zone of their streak periods; null: the programme’s (docs/engagement.md#streaks). */
            timezone: string | null;
            /** @description Spendable points; never negative. */
            balance: number;
            /** @description Points ever earned (flows and credits), minus reversed ones. */
            lifetime_points: number;
            /** @description Flow-awarded points waiting to become spendable (docs/points.md#pending-points). */
            pending_points: number;
            /** @description The soonest expiry of open points; null: none. */
            next_expiry: components["schemas"]["NextExpiry"] | null;
            /** @description Their level in the tier programme (docs/tiers.md#reads); null: no programme runs. */
            tier: components["schemas"]["ParticipantTier"] | null;
            /**
             * Format: date-time
             * @description Created by its first event or adjustment.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        NextExpiry: {
            points: number;
            /**
             * Format: date-time
             * @description The soonest expiry of open points.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
        };
        ParticipantTier: {
            key: string;
            name: string;
            /**
             * Format: date-time
             * @description When they reached this level.
             * @example 2026-11-22T10:00:00.000Z
             */
            since: string;
            /** @description Qualifying points in the current window. */
            qualifying_points: number;
            /** @description The level above and the qualifying points it still needs; null at the top. */
            next: {
                key: string;
                name: string;
                /** @description 0 when their qualifying points already reach it (a level set by hand below them). */
                points_needed: number;
            } | null;
            /** @description What keeping this level needs by its next evaluation; null when it cannot be lost (the first level, a `lifetime` window, policy `none`). */
            retain: {
                points_needed: number;
                /**
                 * Format: date-time
                 * @description When the level is next evaluated for a downgrade.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                by: string;
            } | null;
        };
        ParticipantExport: {
            participant: components["schemas"]["Participant"];
            /**
             * Format: date-time
             * @description When this document was assembled.
             * @example 2026-11-22T10:00:00.000Z
             */
            generated_at: string;
            /** @description Ledger entries, newest first. */
            ledger: components["schemas"]["LedgerEntry"][];
            /** @description Open lots, in the order debits consume them (soonest expiry first, never-expiring last), as `GET /v1/participants/{external_id}/points` lists them. */
            points_lots: components["schemas"]["PointLot"][];
            /** @description Pending grants (pending, activated or cancelled), newest first, as `…/pending-points`. */
            pending_grants: components["schemas"]["PendingGrant"][];
            /** @description Badges held, newest award first. */
            badges: components["schemas"]["ParticipantBadge"][];
            /** @description Progress toward every badge with criteria, by key, counted now, as `…/achievements`. */
            achievements: components["schemas"]["Achievement"][];
            /** @description Every running streak as it stands now, by key, as `…/streaks`. */
            streaks: components["schemas"]["ParticipantStreak"][];
            /** @description Tier moves, newest first, as `…/tier-history` (the current tier is on `participant`). */
            tier_history: components["schemas"]["TierMove"][];
            /** @description Referrals where it is the advocate or the friend, newest first, as `GET /v1/referrals/{id}` shows them (the other side by external id only). */
            referrals: components["schemas"]["Referral"][];
            /** @description Its referral code as `…/referral-code` answers; null: none was ever made (the export makes none). */
            referral_code: components["schemas"]["ReferralCode"] | null;
            /** @description Redemptions with their fulfilment (codes included), newest first. */
            redemptions: components["schemas"]["Redemption"][];
            /** @description Events of this participant (quarantined ones naming it too), newest first. */
            events: components["schemas"]["Event"][];
            /** @description Messages sent or simulated to it, newest first. */
            messages: components["schemas"]["Message"][];
            /** @description Webhook deliveries of results that name this participant, with payload and attempts. */
            webhook_deliveries: components["schemas"]["WebhookDeliveryDetail"][];
            /** @description The most items any one section holds. */
            limit: number;
            /** @description Sections that held more than `limit` items and show `limit` only (the newest; lots: the first to be consumed); the rest stays readable through that section’s paginated endpoint or a bulk export (`POST /v1/exports`). */
            truncated: ("ledger" | "points_lots" | "pending_grants" | "badges" | "achievements" | "streaks" | "tier_history" | "referrals" | "redemptions" | "events" | "messages" | "webhook_deliveries")[];
        };
        PointLot: {
            /** @description The ledger entry that opened it. */
            entry_id: number;
            /** @description What it opened with. */
            points: number;
            remaining: number;
            expires_at: string | null;
        };
        PendingGrant: {
            /**
             * Format: uuid
             * @description The grant’s id.
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            participant: {
                external_id: string;
            };
            points: number;
            /**
             * Format: date-time
             * @description When it becomes spendable.
             * @example 2026-11-22T10:00:00.000Z
             */
            available_at: string;
            /** @enum {string} */
            status: "pending" | "activated" | "cancelled";
            event_id: string | null;
            flow_run_id: string | null;
            /** @description The credit its activation posted. */
            entry_id: number | null;
            /**
             * Format: date-time
             * @description When it was granted.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
        };
        ParticipantBadge: {
            key: string;
            /** @description Null for a badge without tiers. */
            tier: string | null;
            name: string;
            /**
             * Format: date-time
             * @description When it was awarded.
             * @example 2026-11-22T10:00:00.000Z
             */
            awarded_at: string;
            /** @description The flow run that awarded it. */
            flow_run_id: string | null;
        };
        ParticipantStreak: {
            key: string;
            name: string;
            /**
             * @description A calendar day, an ISO week (Monday first) or a month, in the participant’s time zone.
             * @enum {string}
             */
            frequency: "daily" | "weekly" | "monthly";
            /** @description Consecutive extended periods; 0 once it can no longer be saved. */
            length: number;
            longest: number;
            /** @description The current period’s first instant. */
            period_start: string;
            period_end: string;
            extended_this_period: boolean;
            /** @description It has a length, was not extended this period and no freeze is left. */
            at_risk: boolean;
            freezes: number;
            /** @description The end of the last period that could still save it. */
            expires_at: string | null;
            /** @description The last 30 periods’ outcomes, oldest first. */
            history: {
                /** @description YYYY-MM-DD */
                period_start: string;
                /** @enum {string} */
                status: "extended" | "frozen" | "missed";
            }[];
        };
        TierMove: {
            id: string;
            from: components["schemas"]["TierRef"] | null;
            to: components["schemas"]["TierRef"] | null;
            /** @enum {string} */
            reason: "qualified" | "downgrade" | "manual" | "programme_change";
            /** @description The operator’s note of a manual move. */
            note: string | null;
            qualifying_points: number;
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-11-22T10:00:00.000Z
             */
            at: string;
        };
        ReferralCode: {
            code: string;
        };
        ParticipantSummary: {
            external_id: string;
            balance: number;
            lifetime_points: number;
            pending_points: number;
            next_expiry: components["schemas"]["NextExpiry"] | null;
            tier: components["schemas"]["ParticipantTier"] | null;
            badges_count: number;
            redemptions_count: number;
            events_count: number;
            /** @description Competition rank on the all-time `points` leaderboard. */
            rank: number;
            /** @description The highest active points multiplier. */
            active_multiplier: components["schemas"]["ActiveMultiplier"] | null;
        };
        ActiveMultiplier: {
            factor: number;
            /**
             * Format: date-time
             * @description When it ends.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
        };
        /** @description A page of LedgerEntry objects, newest first. */
        LedgerEntryPage: {
            data: components["schemas"]["LedgerEntry"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        ParticipantPoints: {
            balance: number;
            pending_points: number;
            /** @description Open lots, soonest expiry first (never-expiring last). */
            lots: components["schemas"]["PointLot"][];
            /** @description Open points grouped by expiry instant, the next 12. */
            expiring: {
                /**
                 * Format: date-time
                 * @description An expiry instant.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                expires_at: string;
                points: number;
            }[];
        };
        ParticipantToken: {
            /**
             * @description Send as `Authorization: Bearer <token>` to /graphql, or in graphql-ws `connectionParams`.
             * @example svc_pt_eyJ2IjoxLCJ3Ijoi….9oG1t2nK…
             */
            token: string;
            /**
             * Format: date-time
             * @description When the token stops working.
             */
            expires_at: string;
        };
        Program: {
            /**
             * @description Calendar boundaries (rounding, caps) are taken in it.
             * @example Europe/Paris
             */
            timezone: string;
            /** @description Null: points never expire. */
            points_expiry: components["schemas"]["PointsExpiryOutput"] | null;
            /**
             * @description How long before a lot expires `points.expiring` fires.
             * @example P12M
             */
            expiry_notice: string;
            /** @description How long flow-awarded points wait before they can be spent; null: at once. */
            pending_for: string | null;
            /** @description The most a participant can earn from flows per calendar period. */
            earning_caps: components["schemas"]["EarningCapOutput"][];
        };
        /** @description A page of PendingGrant objects, newest first. */
        PendingGrantPage: {
            data: components["schemas"]["PendingGrant"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        TierPreview: {
            /** @description Participants per level now. */
            current: {
                [key: string]: number;
            };
            /** @description Participants per level once the change is applied and evaluated. */
            proposed: {
                [key: string]: number;
            };
            /** @description Who would move, by level keys. */
            moves: {
                from: string | null;
                to: string | null;
                count: number;
            }[];
        };
        /** @description A page of TierMove objects, newest first. */
        TierMovePage: {
            data: components["schemas"]["TierMove"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        Streak: {
            key: string;
            name: string;
            event_types: string[];
            /**
             * @description A calendar day, an ISO week (Monday first) or a month, in the participant’s time zone.
             * @enum {string}
             */
            frequency: "daily" | "weekly" | "monthly";
            freezes: {
                initial: number;
                max: number;
                earn_every: number | null;
            };
            archived_at: string | null;
            created_at: string;
            updated_at: string;
        };
        ReferralProgram: {
            /** @description The friend’s first event of this type within `qualify_within` qualifies the referral. */
            qualifying_event_type: string;
            /**
             * @description How long after attribution a referral can qualify; then it expires.
             * @example P12M
             */
            qualify_within: string;
            /**
             * @description How long the advocate’s points stay pending after qualification (a cancel claws them back).
             * @example P14D
             */
            hold: string;
            /** @description Run for the friend at once when the referral qualifies. */
            friend_actions: ({
                /** @constant */
                type: "award_points";
                points: number;
                reason?: string;
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            })[];
            /** @description The advocate’s reward: points pending during the hold, badges when it ends. */
            advocate_actions: ({
                /** @constant */
                type: "award_points";
                points: number;
                reason?: string;
            } | {
                /** @constant */
                type: "award_badge";
                badge: string;
                tier?: string;
            })[];
            /** @description The most referrals an advocate can make per calendar period; more are `blocked`. */
            advocate_limit: {
                /**
                 * @description A calendar period in the programme’s time zone; weeks start Monday.
                 * @enum {string}
                 */
                period: "day" | "week" | "month" | "year";
                max: number;
            } | null;
            /** @description False: codes attribute nothing; referrals already made go on. */
            active: boolean;
            updated_at: string;
        };
        /** @description A page of Referral objects, newest first. */
        ReferralPage: {
            data: components["schemas"]["Referral"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        Leaderboard: {
            key: string;
            name: string;
            /** @enum {string} */
            period: "all_time" | "weekly" | "monthly";
            created_at: string | null;
        };
        LeaderboardPage: {
            data: {
                rank: number;
                external_id: string;
                score: number;
            }[];
            meta: {
                key: string;
                /** @enum {string} */
                period: "all_time" | "weekly" | "monthly";
                period_start: string | null;
                period_end: string | null;
            };
        };
        LeaderboardStanding: {
            rank: number;
            score: number;
        };
        /** @description A page of Redemption objects, newest first. */
        RedemptionPage: {
            data: components["schemas"]["Redemption"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        Reward: {
            id: number;
            name: string;
            subtitle: string | null;
            description: string | null;
            image_url: string | null;
            type: components["schemas"]["RewardType"];
            cost_points: number;
            active: boolean;
            starts_at: string | null;
            ends_at: string | null;
            /** @description Units of a non-code reward; null = unlimited. */
            stock: number | null;
            /** @description Live stock: for a code-backed reward (voucher_code, or digital_asset with a pool) its unredeemed codes; else the units left, null when unlimited. */
            stock_remaining: number | null;
            /** @description Active, inside its window, not archived and in stock. */
            is_claimable: boolean;
            /** @description By type (see `RewardType`). An external reward’s header values are shown as `[redacted]` to keys without `rewards:write`. */
            config: {
                [key: string]: unknown;
            };
            /** @description The lowest tier level (its key) that may redeem it; null: anyone (docs/tiers.md#benefits). */
            min_tier: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
        };
        CodeImportResult: {
            imported: number;
            /** @description Codes already in the pool or repeated in the input. */
            skipped_duplicates: number;
            stock_remaining: number;
        };
        CodeGenerateResult: {
            generated: number;
            stock_remaining: number;
        };
        FulfilmentTestResult: {
            ok: boolean;
            /** @description Null when no response came back. */
            status_code: number | null;
            /** @description The string found at `code_path`. */
            code: string | null;
            /** @description At most the first 1 KiB of the answer. */
            response_snippet: string | null;
            error: string | null;
        };
        ParticipantCatalogue: {
            data: components["schemas"]["CatalogueReward"][];
            meta: {
                balance: number;
            };
        };
        CatalogueReward: {
            id: number;
            name: string;
            subtitle: string | null;
            description: string | null;
            image_url: string | null;
            type: components["schemas"]["RewardType"];
            cost_points: number;
            active: boolean;
            starts_at: string | null;
            ends_at: string | null;
            /** @description Units of a non-code reward; null = unlimited. */
            stock: number | null;
            /** @description Live stock: for a code-backed reward (voucher_code, or digital_asset with a pool) its unredeemed codes; else the units left, null when unlimited. */
            stock_remaining: number | null;
            /** @description Active, inside its window, not archived and in stock. */
            is_claimable: boolean;
            /** @description By type (see `RewardType`). An external reward’s header values are shown as `[redacted]` to keys without `rewards:write`. */
            config: {
                [key: string]: unknown;
            };
            /** @description The lowest tier level (its key) that may redeem it; null: anyone (docs/tiers.md#benefits). */
            min_tier: string | null;
            /**
             * Format: date-time
             * @description Creation time.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
            /** @description The participant's balance covers `cost_points`. */
            can_afford: boolean;
            /** @description The participant’s tier level reaches the reward’s `min_tier` (always true without one). */
            tier_eligible: boolean;
        };
        Export: {
            /**
             * Format: uuid
             * @description Export id (UUIDv7, time-ordered).
             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
             */
            id: string;
            resource: components["schemas"]["ExportResource"];
            format: components["schemas"]["ExportFormat"];
            status: components["schemas"]["ExportStatus"];
            since: string | null;
            until: string | null;
            /** @description Rows in the file, once completed. */
            row_count: number | null;
            /** @description Bytes in the file, once completed. */
            size_bytes: number | null;
            /** @description Once completed: a URL anyone holding it may GET for one hour (a fresh one on every read of the export). */
            download_url: string | null;
            /**
             * Format: date-time
             * @description When the file is deleted (7 days after the request).
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
            /** @description Why it failed. */
            error: string | null;
            /**
             * Format: date-time
             * @description When it was requested.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            completed_at: string | null;
        };
        /** @description A page of Export objects, newest first. */
        ExportPage: {
            data: components["schemas"]["Export"][];
            links: components["schemas"]["PageLinks"];
            meta: components["schemas"]["PageMeta"];
        };
        EarningCapOutput: {
            /**
             * @description A calendar period in the programme’s time zone; weeks start Monday.
             * @enum {string}
             */
            period: "day" | "week" | "month" | "year";
            max_points: number;
        };
        PointsExpiryOutput: {
            /**
             * @description `fixed`: each credit expires `after` its credit time, rounded up by `round_to`. `activity`: all unspent points expire `after` the last credit from a flow or a positive adjustment.
             * @enum {string}
             */
            mode: "fixed" | "activity";
            /** @example P12M */
            after: string;
            /**
             * @description Rounds a `fixed` expiry up to the end of its day, month, quarter or year.
             * @default none
             * @enum {string}
             */
            round_to: "none" | "day" | "month" | "quarter" | "year";
        };
        TierProgrammeOutput: {
            qualification: {
                /**
                 * @description `lifetime`: every qualifying point ever. `rolling`: those of the last `duration`. `calendar`: those of the current `period` in the programme’s time zone.
                 * @enum {string}
                 */
                window: "lifetime" | "rolling" | "calendar";
                /**
                 * @description `rolling` only: the window’s length, e.g. P12M.
                 * @example P12M
                 */
                duration?: string;
                /**
                 * @description `calendar` only.
                 * @enum {string}
                 */
                period?: "month" | "quarter" | "year";
            };
            downgrade: {
                /**
                 * @description `none`: never. `one_down`: one level per evaluation. `to_qualified`: to the level the window supports.
                 * @enum {string}
                 */
                policy: "none" | "one_down" | "to_qualified";
                /**
                 * @description How long a participant below their level’s threshold keeps it. Default: none.
                 * @example P12M
                 */
                grace?: string;
            };
            /** @description Ordered by threshold; everyone starts at the first. */
            levels: components["schemas"]["TierLevelOutput"][];
        };
        TierLevelOutput: {
            key: string;
            name: string;
            /** @description Qualifying points that reach the level; the first level’s is 0. */
            threshold: number;
            /**
             * @description Multiplies flow awards while at this level (1–10, two decimals; rounded down).
             * @default 1
             */
            earn_multiplier: number;
            /** @default null */
            description: string | null;
        };
        /** @description Every error response has this shape. */
        ErrorEnvelope: {
            error: components["schemas"]["InvalidRequestError"] | components["schemas"]["AuthenticationError"] | components["schemas"]["PermissionError"] | components["schemas"]["NotFoundError"] | components["schemas"]["IdempotencyConflictError"] | components["schemas"]["InvalidStateError"] | components["schemas"]["PayloadTooLargeError"] | components["schemas"]["ValidationError"] | components["schemas"]["InsufficientPointsError"] | components["schemas"]["OutOfStockError"] | components["schemas"]["RewardUnavailableError"] | components["schemas"]["ExternalFulfilmentFailedError"] | components["schemas"]["AlreadyReversedError"] | components["schemas"]["TierRequiredError"] | components["schemas"]["RateLimitError"] | components["schemas"]["ApiError"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Identifies the request in the logs: the caller's `X-Request-Id` when it is 1–128 characters of `A-Z a-z 0-9 . _ : -`, otherwise a generated `req_…` id. */
        "X-Request-Id": string;
        /** @description Requests allowed per minute for this key. Sent on bearer-key routes while rate limiting is enabled (`RATE_LIMIT_PER_MINUTE` > 0). */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window. Sent on bearer-key routes while rate limiting is enabled (`RATE_LIMIT_PER_MINUTE` > 0). */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets. Sent on bearer-key routes while rate limiting is enabled (`RATE_LIMIT_PER_MINUTE` > 0). */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                status?: "received" | "processed" | "failed" | "quarantined";
                event_type?: string;
                participant?: string;
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Deduplicates retries; wins over the body `idempotency_key`. Scoped to workspace + mode. A duplicate answers 202 with the original `event_id` and `Idempotent-Replayed: true`. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Shorthand accepted: `type` for `event_type`, and `participant` as a string external id. Unknown fields are a 422. An event without `event_type` (and no endpoint default) or `participant.external_id`, or whose payload fails its event type's JSON Schema, is stored as `quarantined` with a reason, never processed, and still answers 202. Limits: `event_type` ≤ 128 characters of `A-Z a-z 0-9 . _ : -`, `external_id` ≤ 255, JSON nested at most 32 levels, no NUL characters or lone surrogates. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventBody"];
            };
        };
        responses: {
            /** @description Accepted (also when quarantined, and for a replayed idempotency key). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventAccepted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    ingestEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description Deduplicates retries; wins over the body `idempotency_key`. Scoped to workspace + mode. A duplicate answers 202 with the original `event_id` and `Idempotent-Replayed: true`. */
                "Idempotency-Key"?: string;
                /** @description `t=<unix seconds>,v1=<hmac>` where `<hmac>` is the lowercase hex HMAC-SHA256, keyed with the endpoint's secret, of the string `<t>.<raw request body>` (the exact bytes received). The timestamp must be within 300 seconds of the server clock. Sign the bytes you send, not a re-serialisation. */
                "X-Signature": string;
            };
            path: {
                /** @description The ingest endpoint key (`ing_` + 32 letters and digits). An unknown key is a 401. */
                key: string;
            };
            cookie?: never;
        };
        /** @description Shorthand accepted: `type` for `event_type`, and `participant` as a string external id. Unknown fields are a 422. An event without `event_type` (and no endpoint default) or `participant.external_id`, or whose payload fails its event type's JSON Schema, is stored as `quarantined` with a reason, never processed, and still answers 202. Limits: `event_type` ≤ 128 characters of `A-Z a-z 0-9 . _ : -`, `external_id` ≤ 255, JSON nested at most 32 levels, no NUL characters or lone surrogates. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventBody"];
            };
        };
        responses: {
            /** @description Accepted (also when quarantined, and for a replayed idempotency key). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventAccepted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createEventBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description `{ events: [...] }`, each item an event body. Shorthand accepted: `type` for `event_type`, and `participant` as a string external id. Unknown fields are a 422. An event without `event_type` (and no endpoint default) or `participant.external_id`, or whose payload fails its event type's JSON Schema, is stored as `quarantined` with a reason, never processed, and still answers 202. Limits: `event_type` ≤ 128 characters of `A-Z a-z 0-9 . _ : -`, `external_id` ≤ 255, JSON nested at most 32 levels, no NUL characters or lone surrogates. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 1000 event bodies, each as `POST /v1/events` takes one (shorthand, its own `idempotency_key`). One invalid item refuses the whole batch with a 422 naming it (e.g. `events.3.participant`). */
                    events: components["schemas"]["EventBody"][];
                };
            };
        };
        responses: {
            /** @description Accepted: one result per item, in request order. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventBatchAccepted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    replayEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event type to replay the event as; absent: its own. */
                    event_type?: string;
                    /** @description The payload to replay the event with, whole; absent: its own. */
                    payload?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The new event, stored (also when it was quarantined again). */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventAccepted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    replayEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replays only events of this type. */
                    event_type?: string;
                    /** @description Replays only events received at or after this time (ISO 8601 date or date-time). */
                    since?: string;
                    /** @description Replays only events received before this time (ISO 8601 date or date-time). */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description How many events this call replayed. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsReplayed"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDetail"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    simulateEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulateEventInput"];
            };
        };
        responses: {
            /** @description The simulation. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listEventTypes: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of event types. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventTypePage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    putEventTypeSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event type key, e.g. `order.completed`. */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    schema: {
                        [key: string]: unknown;
                    } | null;
                } | {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The event type. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    dropEventTypeSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event type key, e.g. `order.completed`. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event type, without a schema. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listIngestEndpoints: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ingest endpoints (without secrets). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestEndpointPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createIngestEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    default_event_type?: string | null;
                };
            };
        };
        responses: {
            /** @description Created, with its secret. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestEndpointCreated"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getIngestEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ingest endpoint id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint (without its secret). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestEndpoint"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    deleteIngestEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ingest endpoint id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        ok: true;
                        /** @constant */
                        database: "up";
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
            /** @description The database is unreachable (`api_error`). */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4": string;
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listMessageTemplates: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of templates. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageTemplatePage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createMessageTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageTemplateCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageTemplate"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getMessageTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template key. An unknown key is a 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageTemplate"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    deleteMessageTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template key. An unknown key is a 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageTemplateDeleted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateMessageTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template key. An unknown key is a 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageTemplateUpdate"];
            };
        };
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageTemplate"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                status?: components["schemas"]["MessageStatus"];
                /** @description A template key. */
                template?: string;
                /** @description A participant's external id. */
                participant?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagePage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The message id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listFlows: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                event_type?: string;
                active?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of flows, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createFlow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlowInput"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The flow id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    deleteFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The flow id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The flow id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FlowUpdate"];
            };
        };
        responses: {
            /** @description The flow. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listFlowRuns: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                flow_id?: string;
                participant?: string;
                event_id?: string;
                status?: "completed" | "failed" | "skipped";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of flow runs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowRunPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getFlowRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The flow run id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow run with its steps. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowRun"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listBadges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every badge of the workspace and mode. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadgeList"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    defineBadge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BadgeInput"];
            };
        };
        responses: {
            /** @description Redefined: the key existed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Badge"];
                };
            };
            /** @description Defined. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Badge"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantAchievements: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The achievements. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AchievementList"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    backfillBadge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The badge key. */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BadgeBackfillInput"];
            };
        };
        responses: {
            /** @description The dry run’s count; nothing changed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadgeBackfillDryRun"];
                };
            };
            /** @description Queued. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadgeBackfillQueued"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listWebhookSubscriptions: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of subscriptions (without secrets). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http/https destination. Checked by the egress guard now (a private, loopback, link-local or metadata address is a 422 on `url`, and it is never called) and again at every send.
                     * @example https://example.com/hooks/svc
                     */
                    url: string;
                    /** @description Result types to receive (badge.awarded, points.changed, reward.redeemed, flow.completed, message.sent, points.expiring, tier.changed, streak.extended, streak.broken, referral.qualified, referral.rewarded, webhook.disabled), or `["*"]` for all. */
                    event_types: ("badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled" | "*")[];
                    /** @description Signing secret. `whsec_<standard base64>` is keyed by its decoded bytes for `webhook-signature` (Standard Webhooks libraries take it as is); any other is keyed by its UTF-8 bytes (their raw-key option). `X-Svc-Signature` is keyed by the whole string. Omitted: a `whsec_…` one of 32 random bytes is generated. */
                    secret?: string;
                    /**
                     * @description Custom headers sent with every delivery. Content-Type, User-Agent, Host, hop-by-hop headers, `X-Svc-*` and `webhook-id` / `webhook-timestamp` / `webhook-signature` are set by the service and refused here.
                     * @example {
                     *       "X-Team": "growth"
                     *     }
                     */
                    headers?: {
                        [key: string]: string;
                    };
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description Created, with its secret. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionCreated"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription (without its secret). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscription"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    deleteWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http/https destination. Checked by the egress guard now (a private, loopback, link-local or metadata address is a 422 on `url`, and it is never called) and again at every send.
                     * @example https://example.com/hooks/svc
                     */
                    url?: string;
                    /** @description Result types to receive (badge.awarded, points.changed, reward.redeemed, flow.completed, message.sent, points.expiring, tier.changed, streak.extended, streak.broken, referral.qualified, referral.rewarded, webhook.disabled), or `["*"]` for all. */
                    event_types?: ("badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled" | "*")[];
                    /**
                     * @description Custom headers sent with every delivery. Content-Type, User-Agent, Host, hop-by-hop headers, `X-Svc-*` and `webhook-id` / `webhook-timestamp` / `webhook-signature` are set by the service and refused here.
                     * @example {
                     *       "X-Team": "growth"
                     *     }
                     */
                    headers?: {
                        [key: string]: string;
                    };
                    description?: string | null;
                    /**
                     * @description Pausing makes the pending deliveries `dead` at once; `active` resumes a paused subscription or re-enables a disabled one (docs/webhooks.md#auto-disable) and sends new results again.
                     * @enum {string}
                     */
                    status?: "active" | "paused";
                };
            };
        };
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscription"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    testWebhookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the receiver did. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Signing secret. `whsec_<standard base64>` is keyed by its decoded bytes for `webhook-signature` (Standard Webhooks libraries take it as is); any other is keyed by its UTF-8 bytes (their raw-key option). `X-Svc-Signature` is keyed by the whole string. Omitted: a `whsec_…` one of 32 random bytes is generated. */
                    secret?: string;
                    /**
                     * @description How long the replaced secret keeps signing beside the new one (0 to 604800 s, default 86400: a day). 0 stops it at once.
                     * @default 86400
                     */
                    grace_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The new secret, and when the old one stops signing. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretRotated"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Deliveries created at or after this time (ISO 8601), at most 14 days ago.
                     * @example 2026-11-28T09:00:00Z
                     */
                    since: string;
                    /**
                     * Format: date-time
                     * @description Deliveries created at or before this time (ISO 8601); default: now.
                     */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Queued for delivery again. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveriesRecovered"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                /** @description Only deliveries to this subscription. */
                subscription_id?: string;
                status?: "pending" | "succeeded" | "dead" | "simulated";
                type?: "badge.awarded" | "points.changed" | "reward.redeemed" | "flow.completed" | "message.sent" | "points.expiring" | "tier.changed" | "streak.extended" | "streak.broken" | "referral.qualified" | "referral.rewarded" | "webhook.disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, now pending. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listWebhookEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue: the same for every workspace and mode. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEventTypeList"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipants: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                /** @description Case-insensitive substring (or prefix) of the external id, e-mail or name. */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of participants. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The participant. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Participant"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    eraseParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Erased. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        erased: true;
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string | null;
                    phone?: string | null;
                    name?: string | null;
                    timezone?: string | null;
                };
            };
        };
        responses: {
            /** @description The updated participant. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Participant"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    exportParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantExport"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getParticipantSummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Balance, counts, rank and multiplier. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantSummary"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantLedger: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ledger entries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntryPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantBadges: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The badges. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantBadge"][];
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getParticipantPoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The participant’s points. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantPoints"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    adjustPoints: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes retries safe; wins over the body `idempotency_key`. Scoped to workspace + mode. A retry answers 200 with the original entry and `Idempotent-Replayed: true`; the same key with a different request is a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Signed: a credit is positive, a debit negative (never below the balance). */
                    points: number;
                    reason: string;
                    /** @description Makes retries safe (docs/api.md#idempotency); the `Idempotency-Key` header wins over it. */
                    idempotency_key?: string | null;
                };
            };
        };
        responses: {
            /** @description A retry with the same idempotency key: the original entry, nothing written. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntry"];
                };
            };
            /** @description Posted. A replayed idempotency key answers 200 with the original entry instead. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntry"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `idempotency_conflict`: An idempotency key was reused with a different request body. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["IdempotencyConflictError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /**
             * @description `insufficient_points`: The participant's balance does not cover the cost.
             *
             *     `validation_error`: A field failed validation; `errors` lists each one.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InsufficientPointsError"] | components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    reverseLedgerEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
                /** @description The ledger entry id (of this participant). An unknown or malformed id is a 404. */
                entry_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string | null;
                };
            };
        };
        responses: {
            /** @description The reversal entry. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntry"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /**
             * @description `already_reversed`: The ledger entry has already been reversed.
             *
             *     `insufficient_points`: The participant's balance does not cover the cost.
             *
             *     `validation_error`: A field failed validation; `errors` lists each one.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AlreadyReversedError"] | components["schemas"]["InsufficientPointsError"] | components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    mintParticipantToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Lifetime in seconds: 60 to 86400, default 3600.
                     * @default 3600
                     */
                    ttl_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The token, shown once. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantToken"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getProgram: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The programme settings. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Program"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateProgram: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProgramUpdate"];
            };
        };
        responses: {
            /** @description The programme settings after the change. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Program"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantPendingPoints: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pending grants. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingGrantPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    activatePendingPoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pending grant’s id (UUIDv7). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The grant. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingGrant"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    cancelPendingPoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The pending grant’s id (UUIDv7). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The grant. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingGrant"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getTiers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The programme, or null. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TierProgrammeOutput"] | null;
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    putTiers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TierProgramme"];
            };
        };
        responses: {
            /** @description The programme. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TierProgrammeOutput"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    deleteTiers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    previewTiers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TierProgramme"];
            };
        };
        responses: {
            /** @description The counts and moves. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TierPreview"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantTierHistory: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of moves. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TierMovePage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    setParticipantTier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TierAssignment"];
            };
        };
        responses: {
            /** @description The participant’s tier. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantTier"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listStreaks: {
        parameters: {
            query?: {
                /** @description `true` lists archived streaks too. */
                include_archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The streaks. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Streak"][];
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createStreak: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StreakInput"];
            };
        };
        responses: {
            /** @description The streak. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getStreak: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The streak key. Unknown: 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The streak. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    archiveStreak: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The streak key. Unknown: 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived streak. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateStreak: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The streak key. Unknown: 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StreakUpdate"];
            };
        };
        responses: {
            /** @description The streak. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Streak"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantStreaks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Their streaks. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ParticipantStreak"][];
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getReferralProgram: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The programme. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferralProgram"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    putReferralProgram: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReferralProgramInput"];
            };
        };
        responses: {
            /** @description The programme. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferralProgram"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listReferrals: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                /** @description Only the referrals of the advocate with this external id (unknown: none). */
                advocate?: string;
                /** @description Only referrals in this status. */
                status?: "pending" | "qualified" | "rewarded" | "blocked" | "expired" | "clawed_back";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of referrals. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferralPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The referral id (UUIDv7). An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The referral. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    cancelReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The referral id (UUIDv7). An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The referral. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getParticipantReferralCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The code. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferralCode"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listLeaderboards: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The boards. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Leaderboard"][];
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createLeaderboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string;
                    name: string;
                    /**
                     * @description Points earned in the UTC week (Monday first), UTC month, or ever.
                     * @enum {string}
                     */
                    period: "all_time" | "weekly" | "monthly";
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Leaderboard"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getLeaderboard: {
        parameters: {
            query?: {
                /** @description How many places: default 10; above 1000 is clamped to 1000. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The leaderboard key (`points` always exists). Unknown: 404. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The top places of the current period. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaderboardPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getLeaderboardStanding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The leaderboard key (`points` always exists). Unknown: 404. */
                key: string;
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The standing. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaderboardStanding"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listRedemptions: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                /** @description A participant's external id. */
                participant?: string;
                status?: "pending" | "fulfilled" | "cancelled";
                reward_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of redemptions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedemptionPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createRedemption: {
        parameters: {
            query?: never;
            header?: {
                /** @description Same as the body `idempotency_key`, and wins over it. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The participant's external id. */
                    participant: string;
                    /** @description One of reward_id or reward. */
                    reward_id?: number;
                    /** @description The reward by name. */
                    reward?: string;
                    /** @description A retry with the same key answers 200 with the original redemption and never charges twice; the same key with a different body is a 409. The `Idempotency-Key` header wins when both are sent. */
                    idempotency_key?: string;
                };
            };
        };
        responses: {
            /** @description A retry with the same idempotency key: the original redemption, nothing charged again (`Idempotent-Replayed: true`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redemption"];
                };
            };
            /** @description Redeemed (a replay answers 200 with the original redemption). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Present when the idempotency key matched an earlier request: nothing was written again. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redemption"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `idempotency_conflict`: An idempotency key was reused with a different request body. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["IdempotencyConflictError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /**
             * @description `reward_unavailable`: The reward is inactive or outside its start/end window.
             *
             *     `tier_required`: The reward needs a tier level (`min_tier`) above the participant's.
             *
             *     `out_of_stock`: No stock or no codes left.
             *
             *     `insufficient_points`: The participant's balance does not cover the cost.
             *
             *     `external_fulfilment_failed`: The external fulfilment endpoint failed; the debit was reversed, stock restored and the redemption cancelled.
             *
             *     `validation_error`: A field failed validation; `errors` lists each one.
             */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RewardUnavailableError"] | components["schemas"]["TierRequiredError"] | components["schemas"]["OutOfStockError"] | components["schemas"]["InsufficientPointsError"] | components["schemas"]["ExternalFulfilmentFailedError"] | components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listRewards: {
        parameters: {
            query?: {
                /** @description Also list inactive rewards (never archived ones). Default false. */
                include_inactive?: ("true" | "false") | boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Reward"][];
                    };
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createReward: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique per workspace and mode. */
                    name: string;
                    subtitle?: string | null;
                    description?: string | null;
                    image_url?: string | null;
                    cost_points: number;
                    active?: boolean;
                    starts_at?: string | null;
                    ends_at?: string | null;
                    /** @description Units of a non-code reward; null or absent = unlimited. Code-backed rewards count their unredeemed codes instead. */
                    stock?: number | null;
                    /** @description By type: `external` → `{ endpoint_url, method?, headers?, body?, code_path }` (tokens `{{participant.external_id}}`, `{{participant.email}}`, `{{participant.name}}`, `{{reward.name}}`, `{{reference}}` substituted as plain text in header and body strings); `digital_asset` without a pool → `{ asset_code?, asset_url? }`; `points_multiplier` → `{ factor (> 1, ≤ 10), duration_hours }`; others `{}`. */
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @description A level key of the running tier programme: below it, redemption is 422 `tier_required`. */
                    min_tier?: string | null;
                    type: components["schemas"]["RewardType"];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reward"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getReward: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reward id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reward. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reward"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    archiveReward: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reward id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived reward. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reward"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    updateReward: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reward id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique per workspace and mode. */
                    name?: string;
                    subtitle?: string | null;
                    description?: string | null;
                    image_url?: string | null;
                    cost_points?: number;
                    active?: boolean;
                    starts_at?: string | null;
                    ends_at?: string | null;
                    /** @description Units of a non-code reward; null or absent = unlimited. Code-backed rewards count their unredeemed codes instead. */
                    stock?: number | null;
                    /** @description By type: `external` → `{ endpoint_url, method?, headers?, body?, code_path }` (tokens `{{participant.external_id}}`, `{{participant.email}}`, `{{participant.name}}`, `{{reward.name}}`, `{{reference}}` substituted as plain text in header and body strings); `digital_asset` without a pool → `{ asset_code?, asset_url? }`; `points_multiplier` → `{ factor (> 1, ≤ 10), duration_hours }`; others `{}`. */
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @description A level key of the running tier programme: below it, redemption is 422 `tier_required`. */
                    min_tier?: string | null;
                };
            };
        };
        responses: {
            /** @description The reward. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reward"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    importRewardCodes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reward id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Codes; surrounding whitespace is trimmed, blank entries ignored. */
                    codes: string[];
                };
                "text/plain": string;
                "text/csv": string;
            };
        };
        responses: {
            /** @description What was imported. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeImportResult"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    generateRewardCodes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reward id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    count: number;
                    prefix?: string;
                    /**
                     * @description Random characters after the prefix.
                     * @default 10
                     */
                    length?: number;
                };
            };
        };
        responses: {
            /** @description How many were added. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodeGenerateResult"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    testRewardFulfilment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The reward id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An unsaved external config to try instead of the saved one (the edit page’s current form). */
                    config?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description What the endpoint answered. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FulfilmentTestResult"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listParticipantRewards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The participant’s external id. Unknown: 404. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParticipantCatalogue"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getRedemption: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The redemption id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redemption. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redemption"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    fulfilRedemption: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The redemption id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redemption. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redemption"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    cancelRedemption: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The redemption id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The redemption. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redemption"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    listExports: {
        parameters: {
            query?: {
                /** @description Page size: default 50; above 200 is clamped to 200. */
                limit?: number;
                /** @description Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page. */
                cursor?: string;
                status?: components["schemas"]["ExportStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of exports. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportPage"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    createExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    resource: components["schemas"]["ExportResource"];
                    format: components["schemas"]["ExportFormat"];
                    /**
                     * Format: date-time
                     * @description Only rows created at or after this time (ISO 8601).
                     */
                    since?: string;
                    /**
                     * Format: date-time
                     * @description Only rows created before this time (ISO 8601); default: when the export is requested.
                     */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `payload_too_large`: The body is larger than `MAX_BODY_BYTES` (default 262144). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PayloadTooLargeError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    getExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The export id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    downloadExport: {
        parameters: {
            query?: {
                /** @description The signed token of `download_url`: downloads without a key (valid one hour). */
                token?: string;
            };
            header?: never;
            path: {
                /** @description The export id. An unknown or malformed id is a 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description `attachment; filename="<resource>-<id>.<csv|jsonl>"` */
                    "Content-Disposition": string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": string;
                    "application/x-ndjson": string;
                };
            };
            /** @description `invalid_request_error`: The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidRequestError"];
                    };
                };
            };
            /** @description `authentication_error`: No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["AuthenticationError"];
                    };
                };
            };
            /** @description `permission_error`: The key is valid but lacks the ability the route needs. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["PermissionError"];
                    };
                };
            };
            /** @description `not_found`: Unknown route or resource. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["NotFoundError"];
                    };
                };
            };
            /** @description `invalid_state`: The resource is not in a state that allows this action. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["InvalidStateError"];
                    };
                };
            };
            /** @description `validation_error`: A field failed validation; `errors` lists each one. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ValidationError"];
                    };
                };
            };
            /** @description `rate_limit_error`: The key's per-minute request limit is used up; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["RateLimitError"];
                    };
                };
            };
            /** @description `api_error`: Something went wrong on our side; the `X-Request-Id` identifies it in the logs. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ApiError"];
                    };
                };
            };
        };
    };
    badgeAwardedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "badge.awarded";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "badge.awarded",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "badge": {
                 *           "key": "first-order",
                 *           "tier": "",
                 *           "name": "First order"
                 *         },
                 *         "flow_run_id": "019a7c52-70a4-7f12-8d3e-5b6c7d8e9f01"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "badge.awarded";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A participant was awarded a badge (a key and tier are held once): by a flow (`flow_run_id`), by the badge’s criteria (`achievement: true`) or by a referral (`referral_id`). */
                    data: {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        badge: {
                            key: string;
                            /** @description The tier awarded; an empty string for a badge without tiers. */
                            tier: string;
                            name: string;
                        };
                        /**
                         * Format: uuid
                         * @description The flow run whose `award_badge` step awarded it.
                         * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                         */
                        flow_run_id: string;
                    } | {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        badge: {
                            key: string;
                            /** @description The tier awarded; an empty string for a badge without tiers. */
                            tier: string;
                            name: string;
                        };
                        /** @description No flow run: the badge’s criteria awarded it. */
                        flow_run_id: null;
                        /** @constant */
                        achievement: true;
                    } | {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        badge: {
                            key: string;
                            /** @description The tier awarded; an empty string for a badge without tiers. */
                            tier: string;
                            name: string;
                        };
                        /** @description No flow run: a referral awarded it. */
                        flow_run_id: null;
                        /**
                         * Format: uuid
                         * @description The referral whose friend or advocate actions awarded it.
                         */
                        referral_id: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    pointsChangedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "points.changed";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "points.changed",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "entry": {
                 *           "id": 48213,
                 *           "points": 120,
                 *           "balance_after": 470,
                 *           "reason": "Order completed",
                 *           "source": "flow",
                 *           "reference": "019a7c52-70a4-7f12-8d3e-5b6c7d8e9f01",
                 *           "reverses_entry_id": null,
                 *           "idempotency_key": "019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c:019a7c52-6000-7a00-8b00-0c0d0e0f1011:0",
                 *           "expires_at": null,
                 *           "capped_points": 0,
                 *           "created_at": "2026-11-22T10:00:00.000Z"
                 *         },
                 *         "balance": 470
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "points.changed";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A ledger entry was posted (flow award, adjustment, redemption, reversal or expiry): the entry and the balance it left. */
                    data: {
                        participant: {
                            external_id: string;
                        };
                        entry: components["schemas"]["LedgerEntry"];
                        balance: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    pointsExpiringWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "points.expiring";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "points.expiring",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "points": 80,
                 *         "expires_at": "2026-12-01T00:00:00.000Z",
                 *         "balance": 470
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "points.expiring";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A lot of points will expire soon (`expiry_notice` before `expires_at`; once per lot): what is left of it and the current balance. */
                    data: {
                        participant: {
                            external_id: string;
                        };
                        points: number;
                        expires_at: string;
                        balance: number;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    rewardRedeemedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "reward.redeemed";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "reward.redeemed",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "redemption": {
                 *           "id": 9310,
                 *           "reward_id": 12,
                 *           "participant": {
                 *             "external_id": "user-1842"
                 *           },
                 *           "status": "fulfilled",
                 *           "fulfilment": {
                 *             "type": "voucher_code",
                 *             "code": "SAVE10-8F3K"
                 *           },
                 *           "cost_points": 500,
                 *           "idempotency_key": "order-77120-redeem",
                 *           "is_sandbox": false,
                 *           "created_at": "2026-11-22T10:00:00.000Z",
                 *           "updated_at": "2026-11-22T10:00:00.000Z"
                 *         },
                 *         "reward": {
                 *           "id": 12,
                 *           "name": "10% off",
                 *           "type": "voucher_code"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "reward.redeemed";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A participant redeemed a reward: the redemption (with what was handed out) and the reward. An external reward’s comes once its fulfilment succeeded. */
                    data: {
                        participant: {
                            external_id: string;
                        };
                        redemption: components["schemas"]["Redemption"];
                        reward: {
                            id: number;
                            name: string;
                            type: components["schemas"]["RewardType"];
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    flowCompletedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "flow.completed";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "flow.completed",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "flow": {
                 *           "id": "019a7c52-6000-7a00-8b00-0c0d0e0f1011",
                 *           "name": "Points per order"
                 *         },
                 *         "flow_run_id": "019a7c52-70a4-7f12-8d3e-5b6c7d8e9f01",
                 *         "event_id": "019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c",
                 *         "status": "completed"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "flow.completed";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A flow run ended for good: `completed`, `skipped` (every step skipped) or `failed` (after the event’s last retry). Once per run. */
                    data: {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        flow: {
                            /**
                             * Format: uuid
                             * @description The flow.
                             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                             */
                            id: string;
                            name: string;
                        };
                        /**
                         * Format: uuid
                         * @description The run.
                         * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                         */
                        flow_run_id: string;
                        /** @description The event that ran it; null for an inactivity run. */
                        event_id: string | null;
                        status: components["schemas"]["FlowRunStatus"];
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    messageSentWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "message.sent";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "message.sent",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "message": {
                 *           "id": "019a7c52-71b0-7d20-9e30-4f5061728394",
                 *           "template": "welcome",
                 *           "channel": "email",
                 *           "status": "sent"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "message.sent";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A flow’s message was sent (live) or rendered (test mode, `simulated`). */
                    data: {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        message: {
                            /**
                             * Format: uuid
                             * @description The message (GET /v1/messages/{id}).
                             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                             */
                            id: string;
                            /** @description The template’s key. */
                            template: string;
                            /** @enum {string} */
                            channel: "email" | "sms";
                            /**
                             * @description `sent` (live: handed to the transport) or `simulated` (test mode: rendered, never sent).
                             * @enum {string}
                             */
                            status: "sent" | "simulated";
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    tierChangedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "tier.changed";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "tier.changed",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "from": {
                 *           "key": "silver",
                 *           "name": "Silver"
                 *         },
                 *         "to": {
                 *           "key": "gold",
                 *           "name": "Gold"
                 *         },
                 *         "reason": "qualified",
                 *         "qualifying_points": 520
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "tier.changed";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A participant moved between tier levels (qualified, downgraded, set by hand, or a programme change); `from` or `to` is null outside any level. */
                    data: components["schemas"]["TierChanged"];
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    streakExtendedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "streak.extended";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "streak.extended",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "streak": {
                 *           "key": "daily-workout",
                 *           "length": 5,
                 *           "longest": 12,
                 *           "freezes": 1
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "streak.extended";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A participant’s streak grew by one period. */
                    data: {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        streak: {
                            key: string;
                            /** @description Periods in a row now; 0 once broken. */
                            length: number;
                            longest: number;
                            /** @description Freezes left. */
                            freezes: number;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    streakBrokenWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "streak.broken";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "streak.broken",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "participant": {
                 *           "external_id": "user-1842"
                 *         },
                 *         "streak": {
                 *           "key": "daily-workout",
                 *           "length": 0,
                 *           "longest": 12,
                 *           "freezes": 0
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "streak.broken";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A participant’s streak ended: a period passed with no event and no freeze left to cover it. */
                    data: {
                        /** @description Whom it happened to. */
                        participant: {
                            /** @description The participant’s id in your system. */
                            external_id: string;
                        };
                        streak: {
                            key: string;
                            /** @description Periods in a row now; 0 once broken. */
                            length: number;
                            longest: number;
                            /** @description Freezes left. */
                            freezes: number;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    referralQualifiedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "referral.qualified";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "referral.qualified",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "referral": {
                 *           "id": "019a7c52-7a10-7c55-a1b2-c3d4e5f60718",
                 *           "code": "K7M2QX9P",
                 *           "advocate": {
                 *             "external_id": "user-1842"
                 *           },
                 *           "friend": {
                 *             "external_id": "user-2051"
                 *           },
                 *           "status": "qualified",
                 *           "reason": null,
                 *           "created_at": "2026-11-20T09:12:00.000Z",
                 *           "expires_at": "2026-12-20T09:12:00.000Z",
                 *           "qualified_at": "2026-11-22T10:00:00.000Z",
                 *           "reward_available_at": "2026-12-06T10:00:00.000Z",
                 *           "rewarded_at": null,
                 *           "clawed_back_at": null
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "referral.qualified";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A referred friend’s qualifying event arrived in time: the friend’s actions ran, and the advocate’s reward waits until `reward_available_at`. */
                    data: {
                        referral: components["schemas"]["Referral"];
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    referralRewardedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "referral.rewarded";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "referral.rewarded",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "referral": {
                 *           "id": "019a7c52-7a10-7c55-a1b2-c3d4e5f60718",
                 *           "code": "K7M2QX9P",
                 *           "advocate": {
                 *             "external_id": "user-1842"
                 *           },
                 *           "friend": {
                 *             "external_id": "user-2051"
                 *           },
                 *           "status": "rewarded",
                 *           "reason": null,
                 *           "created_at": "2026-11-20T09:12:00.000Z",
                 *           "expires_at": "2026-12-20T09:12:00.000Z",
                 *           "qualified_at": "2026-11-22T10:00:00.000Z",
                 *           "reward_available_at": "2026-12-06T10:00:00.000Z",
                 *           "rewarded_at": "2026-12-06T10:00:01.000Z",
                 *           "clawed_back_at": null
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "referral.rewarded";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description A qualified referral’s hold ended: the advocate’s points were credited and badges awarded. */
                    data: {
                        referral: components["schemas"]["Referral"];
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookDisabledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new one first during a rotation’s grace). Verifiable with Stripe’s library. */
                "X-Svc-Signature": string;
                /** @description The delivery id (the body’s `id`). */
                "X-Svc-Delivery-Id": string;
                /** @description The body’s `type`. */
                "X-Svc-Event-Type": "webhook.disabled";
                /** @description Standard Webhooks: the delivery id, the same on every attempt. */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated secret, else the secret’s UTF-8 bytes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "019a7c52-7e00-7b00-8c00-0d0e0f101112",
                 *       "type": "webhook.disabled",
                 *       "tenant": "acme-shop",
                 *       "created_at": "2026-11-22T10:00:00.123Z",
                 *       "data": {
                 *         "subscription": {
                 *           "id": "019a7c52-7c00-7a11-b222-c333d444e555",
                 *           "url": "https://hooks.example.com/svc"
                 *         },
                 *         "reason": "failing"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.
                     * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                     */
                    id: string;
                    /** @constant */
                    type: "webhook.disabled";
                    /** @description The workspace’s slug. */
                    tenant: string;
                    /**
                     * Format: date-time
                     * @description When the result was recorded.
                     * @example 2026-11-22T10:00:00.000Z
                     */
                    created_at: string;
                    /** @description One of the workspace’s webhook subscriptions was disabled (sent to its other subscriptions); `PATCH { status: "active" }` enables it again. */
                    data: {
                        subscription: {
                            /**
                             * Format: uuid
                             * @description The subscription.
                             * @example 019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c
                             */
                            id: string;
                            /** Format: uri */
                            url: string;
                        };
                        /**
                         * @description `failing`: no attempt has succeeded since a failure older than the disable threshold (5 days by default); `gone`: it answered 410 Gone.
                         * @enum {string}
                         */
                        reason: "failing" | "gone";
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: any 2xx within the timeout acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}

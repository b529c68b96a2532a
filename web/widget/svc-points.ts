import { type Client, createClient } from 'graphql-ws';

/**
 * `<svc-points endpoint="https://…/graphql" token="svc_pt_…">`: a participant's balance and
 * latest badge, live. A plain custom element with graphql-ws bundled in and no framework: the
 * page needs only this script and a participant token (never an API key). The first values come
 * from one GraphQL query; after that every committed change arrives over the socket
 * (`balanceChanged`, `badgeAwarded`). Style it from outside with `::part(balance)`,
 * `::part(badge)` and `::part(status)`.
 */

const QUERY = `query SvcPoints($id: String!) {
  participant(externalId: $id) { balance badges { key tier name awardedAt } ledger(first: 1) { nodes { id } } }
}`;
const BALANCE =
  'subscription SvcBalance($id: String!, $after: ID) { balanceChanged(externalId: $id, after: $after) { balance } }';
const BADGES =
  'subscription SvcBadges($id: String!) { badgeAwarded(externalId: $id) { badge { key tier name } awardedAt } }';

interface Participant {
  balance: number;
  badges: Badge[];
  ledger: { nodes: { id: string }[] };
}

interface Badge {
  key: string;
  tier: string | null;
  name: string;
}

/** The external id inside a participant token (its payload is signed, not secret). */
function externalIdOf(token: string): string | null {
  try {
    const payload = token.replace(/^svc_pt_/, '').split('.')[0] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const p = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))).p;
    return typeof p === 'string' ? p : null;
  } catch {
    return null;
  }
}

const STYLE = `
:host { display: inline-flex; align-items: center; gap: .6em; font: 500 1rem/1.4 system-ui, sans-serif;
  padding: .5em .9em; border-radius: .6em; background: #f4f6fb; color: #1b2030; }
[part=balance] { font-weight: 700; font-size: 1.4em; font-variant-numeric: tabular-nums; }
[part=unit] { opacity: .7; }
[part=badge]:empty { display: none; }
[part=badge] { padding: .1em .5em; border-radius: 1em; background: #ffe9a8; font-size: .85em; }
[part=status] { width: .5em; height: .5em; border-radius: 50%; background: #b5bac7; }
[part=status][data-live] { background: #2bb673; }
`;

export class SvcPoints extends HTMLElement {
  static observedAttributes = ['endpoint', 'token'];
  private client: Client | null = null;
  private stops: (() => void)[] = [];
  private restarting = false;
  private readonly root: ShadowRoot;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.innerHTML = `<style>${STYLE}</style><span part="status" title="connecting"></span><span part="balance">…</span><span part="unit">points</span><span part="badge"></span>`;
  }

  connectedCallback(): void {
    this.restart();
  }

  disconnectedCallback(): void {
    this.stop();
  }

  attributeChangedCallback(): void {
    this.restart();
  }

  /**
   * Starts over once the current task's changes are in: a parsed element gets a callback per
   * attribute and one for being connected, and would otherwise open a socket for each.
   */
  private restart(): void {
    if (this.restarting) return;
    this.restarting = true;
    queueMicrotask(() => {
      this.restarting = false;
      this.stop();
      if (this.isConnected) this.start();
    });
  }

  private el(name: string): HTMLElement {
    return this.root.querySelector(`[part=${name}]`) as HTMLElement;
  }

  private showBalance(balance: number): void {
    this.el('balance').textContent = balance.toLocaleString();
    this.dispatchEvent(new CustomEvent('svc-balance', { detail: { balance } }));
  }

  private showBadge(badge: Badge | null): void {
    this.el('badge').textContent = badge ? `${badge.name}${badge.tier ? ` · ${badge.tier}` : ''}` : '';
  }

  private status(live: boolean, title: string): void {
    const el = this.el('status');
    el.toggleAttribute('data-live', live);
    el.title = title;
  }

  private start(): void {
    const token = this.getAttribute('token') ?? '';
    const id = externalIdOf(token);
    if (!id) {
      this.status(false, 'no valid participant token');
      return;
    }
    const http = new URL(this.getAttribute('endpoint') ?? '/graphql', document.baseURI);
    const ws = new URL(http);
    ws.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
    const authorization = `Bearer ${token}`;
    // A restart (an attribute set while the page parses) disposes this client, whose socket may
    // close only after its successor's is up: a client no longer current changes nothing shown.
    const current = () => this.client === client;
    const client: Client = createClient({
      url: ws.href,
      connectionParams: { authorization },
      retryAttempts: 20,
      on: {
        connected: () => current() && this.status(true, 'live'),
        closed: () => current() && this.status(false, 'reconnecting'),
      },
    });
    this.client = client;
    this.stops.push(
      client.subscribe<{ badgeAwarded: { badge: Badge } }>(
        { query: BADGES, variables: { id } },
        {
          next: ({ data }) => data && current() && this.showBadge(data.badgeAwarded.badge),
          error: () => current() && this.status(false, 'subscription refused'),
          complete: () => {},
        },
      ),
    );
    // The balance: read once, then followed from the newest entry read, so a change committed
    // between the two is not missed.
    fetch(http, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query: QUERY, variables: { id } }),
    })
      .then((r) => r.json())
      .then((r: { data?: { participant?: Participant | null } }) => {
        if (!current()) return;
        const p = r.data?.participant;
        if (!p) {
          this.status(false, 'participant not found');
          return;
        }
        this.showBalance(p.balance);
        this.showBadge(p.badges[0] ?? null);
        this.stops.push(
          client.subscribe<{ balanceChanged: { balance: number } }>(
            { query: BALANCE, variables: { id, after: p.ledger.nodes[0]?.id ?? '0' } },
            {
              next: ({ data }) => data && current() && this.showBalance(data.balanceChanged.balance),
              error: () => current() && this.status(false, 'subscription refused'),
              complete: () => {},
            },
          ),
        );
      })
      .catch(() => current() && this.status(false, 'could not load the balance'));
  }

  private stop(): void {
    for (const stop of this.stops.splice(0)) stop();
    void this.client?.dispose();
    this.client = null;
  }
}

if (!customElements.get('svc-points')) customElements.define('svc-points', SvcPoints);

import { type Client, createClient } from 'graphql-ws';

/**
 * `<svc-points endpoint="https://…/graphql" token="svc_pt_…">`: a participant's balance, latest
 * badge, tier level and the points the next level needs, and their streaks (length, whether this
 * period already extended each, or that it is at risk), live, and their referral code with a copy
 * button. A plain custom element with graphql-ws bundled in and no framework: the page needs only
 * this script and a participant token (never an API key). The first values come from GraphQL
 * queries; after that every committed change arrives over the socket (`balanceChanged`,
 * `badgeAwarded`, `tierChanged`, `streakChanged`). Style it from outside with `::part(balance)`,
 * `::part(badge)`, `::part(tier)`, `::part(next)`, `::part(streaks)`, `::part(streak)` (one per
 * streak, with `data-key`, `data-length` and `data-state`: `extended`, `at-risk` or `open`),
 * `::part(referral)` (holding `::part(referral-code)` and `::part(copy)`) and `::part(status)`.
 */

const TIER = 'tier { key name next { key name pointsNeeded } }';
const QUERY = `query SvcPoints($id: String!) {
  participant(externalId: $id) {
    balance badges { key tier name awardedAt } ledger(first: 1) { nodes { id } } ${TIER} tierHistory(first: 1) { nodes { id } }
    lastStreakChangeId
  }
}`;
const TIER_QUERY = `query SvcTier($id: String!) { participant(externalId: $id) { ${TIER} } }`;
const BALANCE =
  'subscription SvcBalance($id: String!, $after: ID) { balanceChanged(externalId: $id, after: $after) { balance } }';
const BADGES =
  'subscription SvcBadges($id: String!) { badgeAwarded(externalId: $id) { badge { key tier name } awardedAt } }';
const TIERS =
  'subscription SvcTiers($id: String!, $after: ID) { tierChanged(externalId: $id, after: $after) { to { key name } } }';
const STREAKS_QUERY = `query SvcStreaks($id: String!) {
  participant(externalId: $id) { streaks { key name frequency length extendedThisPeriod atRisk freezes periodEnd } }
}`;
const STREAKS =
  'subscription SvcStreaks($id: String!, $after: ID) { streakChanged(externalId: $id, after: $after) { change streak { key length freezes } } }';
/** Its own query: a server without referrals (or a refused read) leaves the rest of the widget as it was. */
const REFERRAL_QUERY = 'query SvcReferral($id: String!) { participant(externalId: $id) { referralCode } }';

interface Participant {
  balance: number;
  badges: Badge[];
  ledger: { nodes: { id: string }[] };
  tier: Tier | null;
  tierHistory: { nodes: { id: string }[] };
  lastStreakChangeId: string | null;
}

/** One of the participant's streaks as it stands now. */
interface Streak {
  key: string;
  name: string;
  frequency: 'daily' | 'weekly' | 'monthly';
  length: number;
  extendedThisPeriod: boolean;
  atRisk: boolean;
  freezes: number;
  periodEnd: string;
}

const PERIOD = { daily: 'today', weekly: 'this week', monthly: 'this month' } as const;

/** How long until the earliest current period ends (when "extended" or "at risk" may change), at most a day. */
const untilNextPeriod = (streaks: Streak[]): number | null => {
  if (!streaks.length) return null;
  const end = Math.min(...streaks.map((s) => Date.parse(s.periodEnd)));
  return Math.min(Math.max(end - Date.now(), 0) + 1_000, 86_400_000);
};

/** Runs `read` once at a time; calls made during a run are covered by one more run after it. */
function serial(read: () => Promise<void>, alive: () => boolean): () => void {
  let reading = false;
  let again = false;
  const run = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    read()
      .catch(() => {})
      .finally(() => {
        reading = false;
        if (again && alive()) {
          again = false;
          run();
        }
      });
  };
  return run;
}

/** The participant's level; null when no tier programme runs. */
interface Tier {
  key: string;
  name: string;
  next: { key: string; name: string; pointsNeeded: number } | null;
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
[part=tier]:empty, [part=next]:empty { display: none; }
[part=tier] { padding: .1em .5em; border-radius: 1em; background: #dfe6fb; font-size: .85em; font-weight: 600; }
[part=next] { font-size: .8em; opacity: .75; }
[part=streaks]:empty { display: none; }
[part=streaks] { display: inline-flex; gap: .4em; }
[part=streak] { padding: .1em .5em; border-radius: 1em; background: #ffe1d2; font-size: .85em; }
[part=streak][data-state=extended] { background: #d6f3e2; }
[part=streak][data-state=at-risk] { background: #ffd2d2; }
[part=referral][hidden] { display: none; }
[part=referral] { display: inline-flex; align-items: center; gap: .3em; padding: .1em .2em .1em .5em;
  border-radius: 1em; background: #e4f0ff; font-size: .85em; }
[part=referral-code] { font: 600 1em/1 ui-monospace, SFMono-Regular, Menlo, monospace; user-select: all; }
[part=copy] { font: inherit; font-size: .9em; padding: .05em .6em; border: 0; border-radius: 1em;
  background: #1b2030; color: #fff; cursor: pointer; }
[part=copy]:focus-visible { outline: 2px solid #3867d6; outline-offset: 1px; }
[part=status] { width: .5em; height: .5em; border-radius: 50%; background: #b5bac7; }
[part=status][data-live] { background: #2bb673; }
`;

export class SvcPoints extends HTMLElement {
  static observedAttributes = ['endpoint', 'token'];
  private client: Client | null = null;
  private stops: (() => void)[] = [];
  private restarting = false;
  private periodTimer: ReturnType<typeof setTimeout> | undefined;
  private copiedTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly root: ShadowRoot;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.innerHTML = `<style>${STYLE}</style><span part="status" title="connecting"></span><span part="balance">…</span><span part="unit">points</span><span part="tier"></span><span part="next"></span><span part="streaks"></span><span part="badge"></span><span part="referral" hidden title="Your referral code"><code part="referral-code"></code><button part="copy" type="button" aria-label="Copy referral code">Copy</button></span>`;
    this.el('copy').addEventListener('click', () => this.copyCode());
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

  private showTier(tier: Tier | null): void {
    this.el('tier').textContent = tier?.name ?? '';
    this.el('next').textContent = tier?.next
      ? `${tier.next.pointsNeeded.toLocaleString()} points to ${tier.next.name}`
      : '';
    this.dispatchEvent(new CustomEvent('svc-tier', { detail: { tier } }));
  }

  private showStreaks(streaks: Streak[]): void {
    const list = this.el('streaks');
    list.replaceChildren(
      ...streaks.map((s) => {
        const item = document.createElement('span');
        item.setAttribute('part', 'streak');
        item.dataset.key = s.key;
        item.dataset.length = String(s.length);
        item.dataset.state = s.extendedThisPeriod ? 'extended' : s.atRisk ? 'at-risk' : 'open';
        item.textContent = `${s.name}: ${s.length}${s.extendedThisPeriod ? ' ✓' : s.atRisk ? ' · at risk' : ''}`;
        const freezes = `${s.freezes} ${s.freezes === 1 ? 'freeze' : 'freezes'} left`;
        item.title = s.extendedThisPeriod
          ? `Extended ${PERIOD[s.frequency]}; ${freezes}`
          : s.atRisk
            ? `Not extended ${PERIOD[s.frequency]} and no freeze left`
            : `Not extended ${PERIOD[s.frequency]} yet; ${freezes}`;
        return item;
      }),
    );
    this.dispatchEvent(new CustomEvent('svc-streaks', { detail: { streaks } }));
  }

  private showReferralCode(code: string): void {
    this.el('referral-code').textContent = code;
    this.el('referral').hidden = false;
    this.dispatchEvent(new CustomEvent('svc-referral-code', { detail: { code } }));
  }

  /**
   * Copies the code. Where the page may not write the clipboard (not a secure context, or the
   * permission refused), the code is selected instead, ready for the keyboard's copy.
   */
  private copyCode(): void {
    const code = this.el('referral-code');
    const button = this.el('copy');
    const said = (text: string) => {
      button.textContent = text;
      clearTimeout(this.copiedTimer);
      this.copiedTimer = setTimeout(() => {
        button.textContent = 'Copy';
      }, 2_000);
    };
    const select = () => {
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      said('Press Ctrl+C');
    };
    if (navigator.clipboard)
      navigator.clipboard.writeText(code.textContent ?? '').then(() => said('Copied'), select);
    else select();
  }

  private status(live: boolean, title: string): void {
    const el = this.el('status');
    el.toggleAttribute('data-live', live);
    el.title = title;
  }

  private start(): void {
    const token = this.getAttribute('token') ?? '';
    const id = externalIdOf(token);
    // Another participant's code never stays on show while this one's is read.
    this.el('referral').hidden = true;
    if (!id) {
      this.status(false, 'no valid participant token');
      return;
    }
    const http = new URL(this.getAttribute('endpoint') ?? '/graphql', document.baseURI);
    const ws = new URL(http);
    ws.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
    const authorization = `Bearer ${token}`;
    const query = <T>(q: string): Promise<{ data?: { participant?: T | null } }> =>
      fetch(http, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query: q, variables: { id } }),
      }).then((r) => r.json());
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
    // The tier: a move shows its level at once; what the next level needs is read again after
    // each move or balance change (a credit brings qualifying points, which only the service
    // counts). One read at a time: changes during a read are covered by one more read after it.
    const readTier = serial(
      () =>
        query<{ tier: Tier | null }>(TIER_QUERY).then((r) => {
          const p = r.data?.participant;
          if (p && current()) this.showTier(p.tier);
        }),
      current,
    );
    // The streaks: read after each change (whether this period is extended, or at risk, is the
    // service's to tell), and again when the earliest current period ends, which no change marks.
    const readStreaks = serial(
      () =>
        query<{ streaks: Streak[] }>(STREAKS_QUERY).then((r) => {
          const p = r.data?.participant;
          if (!p || !current()) return;
          this.showStreaks(p.streaks);
          clearTimeout(this.periodTimer);
          const wait = untilNextPeriod(p.streaks);
          if (wait !== null) this.periodTimer = setTimeout(readStreaks, wait);
        }),
      current,
    );
    // The referral code: made on first read, then stable, so read once.
    query<{ referralCode: string }>(REFERRAL_QUERY)
      .then((r) => {
        const code = r.data?.participant?.referralCode;
        if (code && current()) this.showReferralCode(code);
      })
      .catch(() => {});
    // The balance and the tier: read once, then followed from the newest ledger entry and tier
    // move read, so a change committed between the two is not missed.
    query<Participant>(QUERY)
      .then((r) => {
        if (!current()) return;
        const p = r.data?.participant;
        if (!p) {
          this.status(false, 'participant not found');
          return;
        }
        this.showBalance(p.balance);
        this.showBadge(p.badges[0] ?? null);
        this.showTier(p.tier);
        this.stops.push(
          client.subscribe<{ tierChanged: { to: { key: string; name: string } | null } }>(
            { query: TIERS, variables: { id, after: p.tierHistory.nodes[0]?.id ?? '0' } },
            {
              next: ({ data }) => {
                if (!data || !current()) return;
                const to = data.tierChanged.to;
                if (to) this.el('tier').textContent = to.name;
                else this.showTier(null);
                readTier();
              },
              error: () => current() && this.status(false, 'subscription refused'),
              complete: () => {},
            },
          ),
        );
        // Subscribed from the position read with the balance, and read after it: a change that
        // commits in between is both shown by the read and sent, never neither.
        this.stops.push(
          client.subscribe<{ streakChanged: { streak: { key: string; length: number } } }>(
            { query: STREAKS, variables: { id, after: p.lastStreakChangeId ?? '0' } },
            {
              next: ({ data }) => {
                if (!data || !current()) return;
                const { key, length } = data.streakChanged.streak;
                for (const item of this.el('streaks').querySelectorAll<HTMLElement>('[part=streak]'))
                  if (item.dataset.key === key) {
                    item.dataset.length = String(length);
                    item.textContent = item.textContent?.replace(/: \d+/, `: ${length}`) ?? '';
                  }
                readStreaks();
              },
              error: () => current() && this.status(false, 'subscription refused'),
              complete: () => {},
            },
          ),
        );
        readStreaks();
        this.stops.push(
          client.subscribe<{ balanceChanged: { balance: number } }>(
            { query: BALANCE, variables: { id, after: p.ledger.nodes[0]?.id ?? '0' } },
            {
              next: ({ data }) => {
                if (!data || !current()) return;
                this.showBalance(data.balanceChanged.balance);
                readTier();
              },
              error: () => current() && this.status(false, 'subscription refused'),
              complete: () => {},
            },
          ),
        );
      })
      .catch(() => current() && this.status(false, 'could not load the balance'));
  }

  private stop(): void {
    clearTimeout(this.periodTimer);
    for (const stop of this.stops.splice(0)) stop();
    void this.client?.dispose();
    this.client = null;
  }
}

if (!customElements.get('svc-points')) customElements.define('svc-points', SvcPoints);

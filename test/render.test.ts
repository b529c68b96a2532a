import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  type RenderContext,
  renderMessage,
  renderText,
  resolveToken,
} from '../src/services/messages/render.ts';

// Pure: no app, no database.

const ctx: RenderContext = {
  participant: {
    external_id: 'u-1',
    email: 'uma@example.com',
    phone: '+15550100',
    name: 'Uma',
    balance: 120,
    lifetime_points: 300,
  },
  payload: { order: { id: 'o-9', total: 42.5, paid: true, tags: ['a', 'b'] } },
  event: { type: 'order.completed', occurred_at: '2026-11-25T10:00:00.000Z' },
};

describe('renderText', () => {
  it('substitutes participant, event and nested payload tokens, with or without inner spaces', () => {
    expect(
      renderText(
        'Hi {{participant.name}}, {{ event.type }} #{{payload.order.id}}: {{payload.order.total}} ({{participant.balance}} pts)',
        ctx,
      ),
    ).toBe('Hi Uma, order.completed #o-9: 42.5 (120 pts)');
  });

  it('renders booleans as text and objects/arrays as JSON', () => {
    expect(renderText('{{payload.order.paid}} {{payload.order.tags}}', ctx)).toBe('true ["a","b"]');
  });

  it('renders unknown tokens, unknown fields and nulls as empty text', () => {
    const noEmail = { ...ctx, participant: { ...ctx.participant, email: null } };
    expect(
      renderText(
        '[{{nope}}][{{participant.password}}][{{payload.missing.deep}}][{{participant.email}}]',
        noEmail,
      ),
    ).toBe('[][][][]');
  });

  it('never reaches the prototype through payload paths', () => {
    expect(
      renderText('[{{payload.constructor}}][{{payload.__proto__}}][{{payload.order.toString}}]', ctx),
    ).toBe('[][][]');
  });

  it('scans once: a token inside a substituted value stays literal', () => {
    const sneaky = { ...ctx, participant: { ...ctx.participant, name: '{{participant.email}}' } };
    expect(renderText('Hello {{participant.name}}', sneaky)).toBe('Hello {{participant.email}}');
  });

  it('leaves text that is not a token alone ({{ }} with spaces only, single braces)', () => {
    expect(renderText('{{ }} {x} {{a b}}', ctx)).toBe('{{ }} {x} {{a b}}');
  });

  it('applies encode to substituted values only, not to the template', () => {
    const evil = { ...ctx, participant: { ...ctx.participant, name: '<b>' } };
    expect(renderText('<p>{{participant.name}}</p>', evil, escapeHtml)).toBe('<p>&lt;b&gt;</p>');
  });
});

describe('resolveToken', () => {
  it('returns raw values (numbers stay numbers) and undefined for unknown roots', () => {
    expect(resolveToken(ctx, 'payload.order.total')).toBe(42.5);
    expect(resolveToken(ctx, 'participant.lifetime_points')).toBe(300);
    expect(resolveToken(ctx, 'participant')).toBeUndefined();
    expect(resolveToken(ctx, 'env.SVC_SECRET')).toBeUndefined();
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters, ampersand first', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
});

describe('renderMessage', () => {
  const evil = {
    ...ctx,
    participant: { ...ctx.participant, name: '<script>x</script>\r\nBcc: all@example.com' },
  };

  it('escapes values in an e-mail body but keeps the template’s own markup', () => {
    const out = renderMessage(
      { channel: 'email', subject: null, body: '<h1>Hi {{participant.name}}</h1>' },
      evil,
    );
    expect(out.body).toBe('<h1>Hi &lt;script&gt;x&lt;/script&gt;\r\nBcc: all@example.com</h1>');
    expect(out.subject).toBeNull();
  });

  it('removes CR/LF from an e-mail subject (no header injection) without HTML-escaping it', () => {
    const out = renderMessage({ channel: 'email', subject: 'For {{participant.name}}', body: '' }, evil);
    expect(out.subject).toBe('For <script>x</script> Bcc: all@example.com');
  });

  it('renders SMS as plain text with no subject, even when one is given', () => {
    const out = renderMessage(
      { channel: 'sms', subject: 'ignored', body: '{{participant.name}} & co' },
      {
        ...ctx,
        participant: { ...ctx.participant, name: '<Uma>' },
      },
    );
    expect(out).toEqual({ subject: null, body: '<Uma> & co' });
  });
});

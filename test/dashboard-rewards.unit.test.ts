import { describe, expect, it } from 'vitest';
import { REDEMPTION_STATUSES as SERVICE_STATUSES } from '../src/services/rewards/shapes.ts';
import {
  filtersFromParams,
  paramsFromFilters,
  REDEMPTION_STATUSES,
  redemptionInput,
} from '../web/dashboard/src/pages/redemptions/filters.ts';
import {
  codeFileType,
  configOf,
  emptyRewardForm,
  formatBytes,
  formToCreate,
  formToUpdate,
  fromLocalInput,
  minTierOptions,
  parseJsonObject,
  type Reward,
  rewardToForm,
  toLocalInput,
} from '../web/dashboard/src/pages/rewards/reward-form.ts';
import { uploadErrorOf } from '../web/dashboard/src/pages/rewards/upload.ts';

// Pure logic of the rewards and redemptions pages (the pages themselves: dashboard-rewards.test.ts).

const saved = (over: Partial<Reward>): Reward => ({
  id: 7,
  name: 'Gift',
  subtitle: null,
  description: null,
  image_url: null,
  type: 'external',
  cost_points: 100,
  active: true,
  starts_at: null,
  ends_at: null,
  stock: null,
  stock_remaining: null,
  is_claimable: true,
  config: {},
  min_tier: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('the reward form', () => {
  it('sends only the config of the chosen type', () => {
    const v = { ...emptyRewardForm(), name: ' Mug ', asset_code: 'X', factor: 3 as const };
    expect(formToCreate({ ...v, type: 'physical', stock: 5 }).input).toMatchObject({
      name: 'Mug',
      type: 'physical',
      stock: 5,
      config: {},
    });
    expect(configOf({ ...v, type: 'digital_asset', asset_url: ' https://x.example/a ' }).config).toEqual({
      asset_code: 'X',
      asset_url: 'https://x.example/a',
    });
    expect(configOf({ ...v, type: 'points_multiplier', duration_hours: 12 }).config).toEqual({
      factor: 3,
      duration_hours: 12,
    });
    // A voucher's stock is its codes: never sent as units.
    expect(formToCreate({ ...v, type: 'voucher_code', stock: 9 }).input.stock).toBeNull();
  });

  it('builds an external config from the JSON fields, and names malformed JSON on its field', () => {
    const v = {
      ...emptyRewardForm(),
      type: 'external' as const,
      endpoint_url: 'https://p.example/codes',
      code_path: 'data.code',
      headers: '{"X-Key": "k"}',
      body: '{"ref": "{{reference}}"}',
    };
    expect(configOf(v)).toEqual({
      config: {
        endpoint_url: 'https://p.example/codes',
        method: 'POST',
        headers: { 'X-Key': 'k' },
        body: { ref: '{{reference}}' },
        code_path: 'data.code',
      },
      errors: {},
    });
    // GET sends no body; an empty body is no body.
    expect(configOf({ ...v, method: 'GET' }).config).not.toHaveProperty('body');
    expect(configOf({ ...v, body: '  ' }).config).not.toHaveProperty('body');
    expect(configOf({ ...v, headers: '[1]', body: '{oops' }).errors).toEqual({
      headers: 'must be a JSON object',
      body: expect.stringMatching(/^not valid JSON/),
    });
  });

  it('round-trips a saved reward, clearing emptied fields with null on update', () => {
    const r = saved({
      subtitle: 'Sub',
      starts_at: '2026-03-01T09:30:00.000Z',
      config: { endpoint_url: 'https://p.example', method: 'PUT', headers: { A: 'b' }, code_path: 'c' },
    });
    const form = rewardToForm(r);
    expect(form).toMatchObject({ name: 'Gift', method: 'PUT', code_path: 'c', subtitle: 'Sub' });
    expect(JSON.parse(form.headers)).toEqual({ A: 'b' });
    const { input } = formToUpdate({ ...form, subtitle: '  ' });
    expect(input.subtitle).toBeNull();
    expect(input.starts_at).toBe('2026-03-01T09:30:00.000Z');
    expect(input.config).toMatchObject({ method: 'PUT', headers: { A: 'b' } });
    // An unknown method in stored config falls back to POST rather than breaking the select.
    expect(rewardToForm(saved({ config: { method: 'TRACE' } })).method).toBe('POST');
  });

  it('checks the request with the service’s schemas before sending it, errors by form field', () => {
    const v = { ...emptyRewardForm(), name: 'Mug' };
    expect(formToCreate(v).errors).toEqual({});
    const create = formToCreate({ ...v, name: '  ', cost_points: 0, image_url: 'not a url' });
    expect(Object.keys(create.errors).sort()).toEqual(['cost_points', 'image_url', 'name']);
    expect(create.errors.cost_points).toMatch(/>=1/);
    // The type's config schema, named on the form's own fields (config.factor → factor).
    const multiplier = formToCreate({ ...v, type: 'points_multiplier', factor: 1, duration_hours: 0 });
    expect(Object.keys(multiplier.errors).sort()).toEqual(['duration_hours', 'factor']);
    const external = formToCreate({
      ...v,
      type: 'external',
      endpoint_url: 'ftp://x.example',
      code_path: '',
      headers: '{oops',
    });
    expect(external.errors.endpoint_url).toBe('must be an http or https URL');
    expect(external.errors.code_path).toMatch(/>=1 characters/);
    expect(external.errors.headers).toMatch(/^not valid JSON/);
    expect(formToUpdate({ ...v, name: '', cost_points: -5 }).errors).toMatchObject({
      name: expect.any(String),
      cost_points: expect.any(String),
    });
  });

  it('sends the minimum tier as its level key, and none as null', () => {
    expect(rewardToForm(saved({})).min_tier).toBe('');
    const form = rewardToForm(saved({ min_tier: 'gold' }));
    expect(form.min_tier).toBe('gold');
    expect(formToUpdate(form).input.min_tier).toBe('gold');
    expect(formToUpdate({ ...form, min_tier: '' }).input.min_tier).toBeNull();
    expect(formToCreate({ ...emptyRewardForm(), name: 'Lounge', min_tier: 'gold' }).input.min_tier).toBe(
      'gold',
    );
  });

  it('offers the programme’s levels as minimum tiers, and keeps a stored one the programme dropped', () => {
    const levels = [
      { key: 'bronze', name: 'Bronze' },
      { key: 'gold', name: 'Gold' },
    ];
    expect(minTierOptions(levels, '')).toEqual([
      { value: 'bronze', label: 'Bronze (bronze)' },
      { value: 'gold', label: 'Gold (gold)' },
    ]);
    expect(minTierOptions(levels, 'gold')).toHaveLength(2);
    expect(minTierOptions([], 'vip')).toEqual([{ value: 'vip', label: 'vip (not in the tier programme)' }]);
  });

  it('converts between ISO timestamps and datetime-local values', () => {
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a date')).toBeNull();
    const local = toLocalInput('2026-07-04T18:45:00.000Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe('2026-07-04T18:45:00.000Z');
  });

  it('parses JSON objects only', () => {
    expect(parseJsonObject('')).toEqual({ ok: true, value: {} });
    expect(parseJsonObject('', { optional: true })).toEqual({ ok: true, value: undefined });
    expect(parseJsonObject('null')).toMatchObject({ ok: false });
    expect(parseJsonObject('"x"')).toMatchObject({ ok: false });
  });
});

describe('redemption statuses', () => {
  it('are the service’s own list', () => {
    expect(REDEMPTION_STATUSES).toBe(SERVICE_STATUSES);
    expect(filtersFromParams(new URLSearchParams('status=fulfilled')).status).toBe('fulfilled');
    expect(filtersFromParams(new URLSearchParams('status=toString')).status).toBe('');
  });
});

describe('code files', () => {
  it('are sent as CSV or text by extension, then by the browser type', () => {
    expect(codeFileType({ name: 'codes.CSV', type: '' })).toBe('text/csv');
    expect(codeFileType({ name: 'export', type: 'text/csv' })).toBe('text/csv');
    expect(codeFileType({ name: 'codes.txt', type: 'text/plain' })).toBe('text/plain');
    expect(codeFileType({ name: 'codes', type: 'application/octet-stream' })).toBe('text/plain');
  });

  it('show their size, and the service’s refusal in its own words', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(12_700)).toBe('12.4 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    const e = uploadErrorOf(422, {
      error: {
        type: 'validation_error',
        message: 'codes.3: bad',
        errors: [{ field: 'codes.3', message: 'bad' }],
      },
    });
    expect(e).toMatchObject({
      message: 'codes.3: bad',
      type: 'validation_error',
      fields: [{ field: 'codes.3' }],
    });
    expect(uploadErrorOf(502, null)).toMatchObject({
      message: 'Upload failed (HTTP 502)',
      type: null,
      fields: [],
    });
  });
});

describe('redemption filters', () => {
  it('read the URL, dropping what the service would refuse', () => {
    expect(filtersFromParams(new URLSearchParams('status=pending&reward=12&participant=ada'))).toEqual({
      status: 'pending',
      reward: '12',
      participant: 'ada',
    });
    expect(filtersFromParams(new URLSearchParams('status=lost&reward=-3'))).toEqual({
      status: '',
      reward: '',
      participant: '',
    });
  });

  it('write the URL and the list input without empty filters', () => {
    const f = { status: 'fulfilled' as const, reward: '', participant: ' bob ' };
    expect(paramsFromFilters(f).toString()).toBe('status=fulfilled&participant=bob');
    expect(redemptionInput(f)).toEqual({ status: 'fulfilled', participant: 'bob' });
    expect(redemptionInput({ status: '', reward: '4', participant: '' })).toEqual({ reward_id: 4 });
  });
});

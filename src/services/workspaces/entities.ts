import { defineEntity, p } from '@mikro-orm/core';

const WorkspaceSchema = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.uuid().primary(),
    slug: p.string().length(64).unique(),
    name: p.string().length(200),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Workspace extends WorkspaceSchema.class {}
WorkspaceSchema.setClass(Workspace);

const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    name: p.string().length(200).nullable(),
    /** sha256 of the whole key, hex: the plaintext is never stored. */
    keyHash: p.string().length(64).unique(),
    /** `svc_test_ab12…wxyz`: enough to recognise a key in a list, not to use it. */
    hint: p.string().length(32),
    abilities: p.array().columnType('text[]').default([]),
    createdAt: p.datetime().defaultRaw('now()'),
    revokedAt: p.datetime().nullable(),
    replacedBy: p.uuid().nullable(),
  },
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  uniques: [{ properties: ['workspace', 'email'] }],
  properties: {
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    email: p.string().length(320),
    passwordHash: p.string().length(200),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);

/**
 * A dashboard sign-in (docs/dashboard.md#security). The cookie carries a random token; only its
 * SHA-256 is stored, so a database leak yields no usable session. Sign-out deletes the row, and
 * deleting the user (or its workspace) deletes its sessions with it.
 */
const DashboardSessionSchema = defineEntity({
  name: 'DashboardSession',
  tableName: 'dashboard_sessions',
  properties: {
    id: p.uuid().primary(),
    /** sha256 of the cookie's token, hex. */
    tokenHash: p.string().length(64).unique(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
  },
});
export class DashboardSession extends DashboardSessionSchema.class {}
DashboardSessionSchema.setClass(DashboardSession);

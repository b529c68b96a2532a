import { z } from 'zod';
import { createKeyInput, issueKey, listKeys, revokeKey, rotateKey } from '../services/keys/manage-keys.ts';
import { router, sessionProcedure } from './trpc.ts';

const idInput = z.strictObject({ id: z.uuid() });

/**
 * API keys of the signed-in user's workspace (both modes; a key's prefix is its mode). The
 * plaintext key is in the answers of `create` and `rotate` only; `list` shows hints.
 */
export const keysRouter = router({
  list: sessionProcedure
    .input(z.strictObject({}).optional())
    .query(async ({ ctx }) => ({ data: await listKeys(ctx.app, ctx.user.workspace.id) })),
  create: sessionProcedure
    .input(createKeyInput.omit({ workspace: true }))
    .mutation(({ ctx, input }) => issueKey(ctx.app, { ...input, workspace: ctx.user.workspace.id })),
  rotate: sessionProcedure
    .input(idInput)
    .mutation(({ ctx, input }) => rotateKey(ctx.app, input.id, { workspaceId: ctx.user.workspace.id })),
  revoke: sessionProcedure
    .input(idInput)
    .mutation(({ ctx, input }) => revokeKey(ctx.app, input.id, { workspaceId: ctx.user.workspace.id })),
});

import { Anchor } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { tone } from '../rewards/tone.ts';
import { TemplateEditor } from './TemplateEditor.tsx';
import { templatePayload } from './template-form.ts';

const BackToTemplates = () => (
  <Anchor component={Link} to="/messages" size="sm">
    ← All templates
  </Anchor>
);

/** `/messages/templates/new`: the editor, empty; a created template opens its own page. */
export function NewTemplate() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.messages.templates.create.mutationOptions({
      onSuccess: (t) => {
        notifySuccess(`Template “${t.key}” created`);
        queryClient.invalidateQueries({ queryKey: trpc.messages.pathKey() });
        navigate(`/messages/templates/${encodeURIComponent(t.key)}`);
      },
      onError: notifyError,
    }),
  );
  return (
    <>
      <BackToTemplates />
      <PageHeader title="New template" />
      <TemplateEditor
        initial={{ key: '', channel: 'email', subject: '', body: '' }}
        creating
        saving={create.isPending}
        error={create.error}
        onSave={(v) => create.mutate({ mode, key: v.key.trim(), ...templatePayload(v) })}
      />
    </>
  );
}

/** `/messages/templates/:key`: the editor on a saved template, and its deletion. */
export function EditTemplate() {
  const { key = '' } = useParams();
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const template = useQuery(trpc.messages.templates.get.queryOptions({ mode, key }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.messages.pathKey() });
  const update = useMutation(
    trpc.messages.templates.update.mutationOptions({
      onSuccess: (t) => {
        notifySuccess(`Template “${t.key}” saved`);
        invalidate();
      },
      onError: notifyError,
    }),
  );
  const remove = useMutation(
    trpc.messages.templates.delete.mutationOptions({
      onSuccess: () => {
        notifySuccess(`Template “${key}” deleted`);
        invalidate();
        navigate('/messages');
      },
      onError: notifyError,
    }),
  );
  return (
    <QueryState query={template}>
      {(t) => (
        <>
          <BackToTemplates />
          <PageHeader
            title={t.key}
            description={`Updated ${formatDateTime(t.updated_at)}. Flows send it by this key.`}
            actions={
              <ConfirmButton
                {...tone('red')}
                title={`Delete template “${t.key}”?`}
                message="Flows that send it will fail their send_message step until a template with this key exists again."
                confirmLabel="Delete"
                loading={remove.isPending}
                onConfirm={() => remove.mutate({ mode, key: t.key })}
              >
                Delete
              </ConfirmButton>
            }
          />
          <TemplateEditor
            // A saved template restarts the form from what the service stored.
            key={t.updated_at}
            initial={{ key: t.key, channel: t.channel, subject: t.subject ?? '', body: t.body }}
            creating={false}
            saving={update.isPending}
            error={update.error}
            onSave={(v) => update.mutate({ mode, key: t.key, patch: templatePayload(v) })}
          />
        </>
      )}
    </QueryState>
  );
}

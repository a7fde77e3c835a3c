import '@mantine/core/styles/Combobox.layer.css';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { fieldErrors } from '@review-desk/shared/envelope';
import {
  SAVED_REPLIES_MAX,
  type SavedReply,
  savedRepliesBodySchema,
} from '@review-desk/shared/saved-replies';
import { useEffect, useState } from 'react';
import { describeError } from '../../../lib/describe-error.ts';
import { useSavedReplies, useSaveSavedReplies } from '../../../lib/saved-replies.ts';

// The location's saved replies: ready-made answers the reply box offers for a review whose rating
// is in their range. {first_name} and {business_name} are filled in when one is chosen.

const STARS = [1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: `${n}★` }));
const blank: SavedReply = { title: '', text: '', minRating: 1, maxRating: 5 };

export default function SavedRepliesEditor() {
  const saved = useSavedReplies(null);
  const save = useSaveSavedReplies();
  const [list, setList] = useState<SavedReply[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (saved.data && list === null) setList(saved.data.replies);
  }, [saved.data, list]);
  if (!list) return null;

  const update = (i: number, change: Partial<SavedReply>) =>
    setList(list.map((r, j) => (j === i ? { ...r, ...change } : r)));
  async function submit() {
    const parsed = savedRepliesBodySchema.safeParse({ replies: list });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error).fields);
    setErrors({});
    setList((await save.mutateAsync(parsed.data.replies)).replies);
  }
  const failure = save.error ? describeError(save.error) : null;
  return (
    <Paper withBorder p="md" data-testid="saved-replies">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Saved replies
        </Title>
        <Text size="sm" c="dimmed">
          Offered in the reply box for reviews rated within their range. Use {'{first_name}'} and{' '}
          {'{business_name}'}.
          {saved.data?.builtIn ? ' These are the built-in ones until you save your own.' : ''}
        </Text>
        {list.map((reply, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list's order is its identity
          <Stack key={i} gap={4} className="saved-reply">
            <Group grow align="flex-start">
              <TextInput
                label="Title"
                size="xs"
                value={reply.title}
                error={errors[`replies.${i}.title`]}
                onChange={(e) => update(i, { title: e.currentTarget.value })}
              />
              <NativeSelect
                label="From"
                size="xs"
                data={STARS}
                value={String(reply.minRating)}
                onChange={(e) => update(i, { minRating: Number(e.currentTarget.value) })}
              />
              <NativeSelect
                label="To"
                size="xs"
                data={STARS}
                value={String(reply.maxRating)}
                error={errors[`replies.${i}.maxRating`]}
                onChange={(e) => update(i, { maxRating: Number(e.currentTarget.value) })}
              />
            </Group>
            <Textarea
              label="Words"
              size="xs"
              rows={3}
              value={reply.text}
              error={errors[`replies.${i}.text`]}
              onChange={(e) => update(i, { text: e.currentTarget.value })}
            />
            <div>
              <Button
                variant="subtle"
                color="red"
                size="compact-xs"
                onClick={() => setList(list.filter((_, j) => j !== i))}
              >
                Remove “{reply.title || 'untitled'}”
              </Button>
            </div>
          </Stack>
        ))}
        {failure && (
          <Alert color="red" variant="light" title={failure.title}>
            {failure.detail ?? failure.meaning}
          </Alert>
        )}
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            disabled={list.length >= SAVED_REPLIES_MAX}
            onClick={() => setList([...list, blank])}
          >
            Add a saved reply
          </Button>
          <Button size="xs" loading={save.isPending} onClick={() => void submit()}>
            Save replies
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

import '@mantine/core/styles/Combobox.layer.css';
import { Button, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { REPLY_TEXT_MAX } from '@review-desk/shared/limits';
import type { ReviewDetail } from '@review-desk/shared/review-reply';
import { renderSavedReply, savedRepliesFor } from '@review-desk/shared/saved-replies';
import { type FormEvent, useState } from 'react';
import { useSavedReplies } from '../api/get-reply-aids.ts';

// The reply box: the words (at most 4,096 characters, counted as you type), a saved reply for
// the review's rating to start from, and one button. A send is one intent: it keeps its
// Idempotency-Key while the words stay the same, so pressing again after a lost answer asks the
// server about the same reply (it never delivers it twice); new words are a new intent.

export function ReplyForm({
  review,
  slug,
  businessName,
  busy,
  onSend,
}: {
  review: ReviewDetail;
  slug: string | null;
  businessName: string;
  busy: boolean;
  /** Resolves true when the server took it (the box empties), false otherwise. */
  onSend: (text: string, key: string) => Promise<boolean>;
}) {
  const saved = useSavedReplies(slug);
  const [text, setText] = useState(
    review.response_status === 'responded' ? (review.response_text ?? '') : '',
  );
  const [intent, setIntent] = useState<{ text: string; key: string } | null>(null);
  const choices = savedRepliesFor(saved.data?.replies ?? [], review.rating);
  const trimmed = text.trim();
  const tooLong = text.length > REPLY_TEXT_MAX;
  const google = review.source.platform === 'google';
  const replacing = review.response_status === 'responded';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (trimmed === '' || tooLong) return;
    const key = intent?.text === trimmed ? intent.key : crypto.randomUUID();
    setIntent({ text: trimmed, key });
    // A definite answer ends the intent; a lost one keeps it for the next press.
    if (await onSend(trimmed, key)) setIntent(null);
  }

  return (
    <form onSubmit={submit} data-testid="reply-form">
      <Stack gap="xs">
        {choices.length > 0 && (
          <NativeSelect
            label="Start from a saved reply"
            size="xs"
            value=""
            data={[
              { value: '', label: `Saved replies for ${review.rating}-star reviews` },
              ...choices.map((c, i) => ({ value: String(i), label: c.title })),
            ]}
            onChange={(event) => {
              const chosen = choices[Number(event.currentTarget.value)];
              if (chosen)
                setText(renderSavedReply(chosen.text, { authorName: review.author_name, businessName }));
            }}
          />
        )}
        <Textarea
          label={replacing ? 'Replace the reply' : 'Your reply'}
          rows={5}
          resize="vertical"
          value={text}
          error={tooLong ? `At most ${REPLY_TEXT_MAX} characters` : undefined}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Ctrl/⌘+Enter sends, as in a mail client.
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event);
          }}
        />
        <Text size="xs" c={tooLong ? 'red' : 'dimmed'} data-testid="reply-count" aria-live="polite">
          {text.length} / {REPLY_TEXT_MAX}
        </Text>
        <div>
          <Button type="submit" size="xs" loading={busy} disabled={trimmed === '' || tooLong}>
            {replacing ? 'Replace reply' : google ? 'Post on Google' : 'Send to the customer'}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '../../../components/overlays.css';
import { Alert, Button, Checkbox, Group, Modal, Radio, Skeleton, Stack, Text } from '@mantine/core';
import type { User } from '@review-desk/shared/bff';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { useSetUserLocations, useUserLocations } from '../api/user-locations.ts';
import { failureText } from '../model.ts';
import { FailureAlert } from './failure-alert.tsx';

/** Which locations a user's role applies to: all of them (now and later), or the chosen ones. */
export default function LocationsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const current = useUserLocations(user?.id ?? null);
  const save = useSetUserLocations();
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const data = current.data;
  useEffect(() => {
    if (!data) return;
    setAll(data.access.all);
    setChosen(data.access.all ? [] : data.access.slugs);
  }, [data]);
  const close = () => {
    save.reset();
    onClose();
  };
  const locations = data?.locations ?? [];
  return (
    <Modal opened={user !== null} onClose={close} title={user ? `Locations of ${user.email}` : 'Locations'}>
      {!data && !current.error && <Skeleton height={120} aria-label="Loading locations" />}
      {current.error && <Alert color="red">{failureText(current.error)}</Alert>}
      {data && user && (
        <Stack>
          <Radio.Group
            value={all ? 'all' : 'chosen'}
            onChange={(v) => setAll(v === 'all')}
            label="Their role applies to"
          >
            <Stack gap={6} mt={6}>
              <Radio value="all" label="Every location, including ones added later" />
              <Radio value="chosen" label="Only the locations chosen below" />
            </Stack>
          </Radio.Group>
          <Checkbox.Group value={chosen} onChange={setChosen} label="Locations">
            <Stack gap={6} mt={6}>
              {locations.map((l) => (
                <Checkbox key={l.slug} value={l.slug} label={l.name} disabled={all} />
              ))}
            </Stack>
          </Checkbox.Group>
          {!all && chosen.length === 0 && (
            <Text size="sm" c="orange">
              With no location chosen, {user.email} can sign in but reach no location.
            </Text>
          )}
          <FailureAlert title="Could not save" error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate(
                  { id: user.id, access: all ? { all: true } : { all: false, slugs: chosen } },
                  {
                    onSuccess: () => {
                      toast({
                        title: 'Locations saved',
                        message: `${user.email}: ${all ? 'every location' : `${chosen.length} location(s)`}.`,
                      });
                      close();
                    },
                  },
                )
              }
            >
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

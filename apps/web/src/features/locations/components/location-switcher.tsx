import './locations.css';
import '@mantine/core/styles/Combobox.layer.css';
import { NativeSelect } from '@mantine/core';
import { useEffect } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import {
  CURRENT_LOCATION,
  locationHref,
  rememberedLocation,
  rememberLocation,
} from '../../../lib/location.ts';
import { useLocations } from '../../../lib/location-list.ts';
import { useLocation } from '../../../lib/router.tsx';
import { useSession } from '../../../lib/session.ts';

/**
 * The location every page works in, for a user with more than one. Choosing one loads the same
 * page in it (the address carries the location, so it can be shared); the choice is remembered
 * per user on this browser and taken again when an address names no location.
 */
function LocationSwitcher() {
  const me = useSession();
  const { data } = useLocations();
  const { pathname, search } = useLocation();
  const locations = data?.locations ?? [];
  const current = CURRENT_LOCATION ?? locations[0]?.slug ?? null;

  useEffect(() => {
    if (CURRENT_LOCATION !== null || locations.length < 2) return;
    const remembered = rememberedLocation(me.user.id);
    if (remembered && remembered !== locations[0]?.slug && locations.some((l) => l.slug === remembered))
      window.location.replace(locationHref(remembered, `${pathname}${search}`));
  }, [locations, me.user.id, pathname, search]);

  if (locations.length < 2) return null;
  const known = locations.some((l) => l.slug === current);
  return (
    <NativeSelect
      aria-label="Location"
      size="xs"
      className="location-switcher"
      value={current ?? ''}
      data={[
        ...(known ? [] : [{ value: current ?? '', label: 'Not one of your locations', disabled: true }]),
        ...locations.map((l) => ({ value: l.slug, label: l.name })),
      ]}
      onChange={(event) => {
        const slug = event.currentTarget.value;
        rememberLocation(me.user.id, slug);
        window.location.assign(locationHref(slug, pathname));
      }}
    />
  );
}

export default withMantine(LocationSwitcher);

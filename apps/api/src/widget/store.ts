import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import { WIDGET_ID_PREFIX } from '@review-desk/shared';
import { randomToken } from '../ids.ts';

// The widgets table (component `widget`, migrations/ beside this file): each business's public
// widget id and the owner's switch.

export const WIDGET_MIGRATIONS = migrationsBeside(import.meta.url, 'widget');

export type WidgetRow = {
  business_id: number;
  public_id: string;
  enabled: number;
  created_at: number;
  updated_at: number;
};

/** 128 random bits: a visitor cannot find a business's widget without its snippet. */
export const newWidgetId = () => `${WIDGET_ID_PREFIX}${randomToken(16)}`;

export function widgetStore(db: Queryable) {
  const insert = db.prepare(`INSERT INTO widgets (business_id, public_id, enabled, created_at, updated_at)
    VALUES ($1, $2, 1, $3, $3) ON CONFLICT (business_id) DO NOTHING`);
  const byBusiness = db.prepare('SELECT * FROM widgets WHERE business_id = $1');
  const byPublicId = db.prepare('SELECT * FROM widgets WHERE public_id = $1');
  const all = db.prepare('SELECT business_id, public_id FROM widgets');
  const setEnabled = db.prepare('UPDATE widgets SET enabled = $1, updated_at = $2 WHERE business_id = $3');

  const row = (r: WidgetRow | undefined) =>
    r && { ...r, business_id: Number(r.business_id), enabled: Number(r.enabled) };

  return {
    /** The business's widget, made on first use (two first uses at once make one). */
    async ensure(businessId: number, now: number): Promise<{ widget: WidgetRow; created: boolean }> {
      const created = (await insert.run(businessId, newWidgetId(), now)).changes > 0;
      return { widget: row(await byBusiness.get<WidgetRow>(businessId))!, created };
    },
    byBusiness: async (businessId: number) => row(await byBusiness.get<WidgetRow>(businessId)),
    byPublicId: async (publicId: string) => row(await byPublicId.get<WidgetRow>(publicId)),
    /** Every widget's public id and business: the directory a view is looked up in. */
    async all(): Promise<{ business_id: number; public_id: string }[]> {
      const rows = await all.all<{ business_id: number; public_id: string }>();
      return rows.map((r) => ({ business_id: Number(r.business_id), public_id: r.public_id }));
    },
    async setEnabled(businessId: number, enabled: boolean, now: number): Promise<void> {
      await setEnabled.run(enabled ? 1 : 0, now, businessId);
    },
  };
}
export type WidgetStore = ReturnType<typeof widgetStore>;

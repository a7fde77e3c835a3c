import { Text, Tooltip } from '@mantine/core';
import { useId } from 'react';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import type { Figure, FigureFormat, Kpi } from '../model.ts';

function FigureValue({ figure, format }: { figure: Figure; format: FigureFormat }) {
  if (figure.kind === 'missing') {
    return (
      <Text className="kpi__missing" size="sm" data-missing="true">
        Not provided by this API
      </Text>
    );
  }
  if (figure.kind === 'none') {
    return (
      <Text className="kpi__value" title="Nothing to compute it from in this window">
        —
      </Text>
    );
  }
  const text =
    format === 'percent'
      ? formatPercent(figure.value)
      : format === 'rating'
        ? `${formatNumber(figure.value, 2)} ★`
        : formatNumber(figure.value);
  return <Text className="kpi__value">{text}</Text>;
}

function KpiTile({ kpi }: { kpi: Kpi }) {
  const definitionId = useId();
  return (
    <Tooltip label={kpi.definition} position="bottom">
      <article className="kpi" data-testid={`kpi-${kpi.key}`} aria-labelledby={`${definitionId}-label`}>
        <div className="kpi__head">
          <Text size="sm" fw={600} id={`${definitionId}-label`}>
            {kpi.label}
          </Text>
          <button
            type="button"
            className="kpi__info"
            aria-label={`What “${kpi.label}” means`}
            aria-describedby={definitionId}
          >
            i
          </button>
        </div>
        <FigureValue figure={kpi.figure} format={kpi.format} />
        <span id={definitionId} className="visually-hidden">
          {kpi.definition}
        </span>
      </article>
    </Tooltip>
  );
}

export function KpiTiles({ kpis }: { kpis: Kpi[] }) {
  return (
    <section className="kpi-grid" aria-label="Key figures">
      {kpis.map((kpi) => (
        <KpiTile key={kpi.key} kpi={kpi} />
      ))}
    </section>
  );
}

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import type { ChartData } from './chart-data';

// Only what the dashboard draws (bars and lines on category/linear axes), so the chunk stays small.
ChartJS.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Colours that keep a 3:1 contrast on white; series also differ by dash and point shape, not by colour alone. */
const PALETTE = ['#0b5cad', '#b42318', '#137333', '#7b3fa0', '#a04d00', '#00707a', '#5a6472'];
const DASHES: number[][] = [[], [6, 4], [2, 3], [10, 3, 2, 3]];
const POINTS = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot'] as const;

export interface ChartProps {
  kind: 'bar' | 'line';
  data: ChartData;
  /** What the chart shows, for screen readers (the table beside it gives the figures). */
  label: string;
  language: string;
  rtl: boolean;
  /** Formats a value on the value axis and in tooltips. */
  formatValue?: (value: number) => string;
}

/**
 * One chart.js canvas. Loaded lazily by the dashboard (chart.js is not part of the first load). The canvas is
 * an image to assistive technology; its figures are in the table under it.
 */
export default function Chart({ kind, data, label, language, rtl, formatValue }: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const format = formatValue ?? ((value: number) => value.toLocaleString(language));
    const config: ChartConfiguration<'bar' | 'line', number[], string> = {
      type: kind,
      data: {
        labels: data.labels,
        datasets: data.series.map((series, index) => {
          const colour = PALETTE[index % PALETTE.length]!;
          return {
            label: series.label,
            data: series.values,
            borderColor: colour,
            backgroundColor: kind === 'bar' ? colour : `${colour}33`,
            borderWidth: 2,
            borderDash: kind === 'line' ? DASHES[index % DASHES.length]! : [],
            pointStyle: POINTS[index % POINTS.length]!,
            pointRadius: kind === 'line' ? 3 : 0,
            cubicInterpolationMode: 'monotone' as const,
          };
        }),
      },
      options: {
        locale: language,
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { reverse: rtl, ticks: { autoSkip: true, maxRotation: 0 } },
          y: { beginAtZero: true, position: rtl ? 'right' : 'left', ticks: { precision: 0, callback: (value) => format(Number(value)) } },
        },
        plugins: {
          legend: { display: data.series.length > 1, rtl, labels: { usePointStyle: true } },
          tooltip: {
            rtl,
            callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${format(Number(item.parsed.y))}` },
          },
        },
      },
    };
    const chart = new ChartJS(canvas.current, config);
    return () => chart.destroy();
  }, [kind, data, language, rtl, formatValue]);

  return (
    <div className="dashboard-chart">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

// One row per figure, the table printed at the end of `npm run bench`, and bench/results.json.
import { cpus, loadavg, totalmem } from 'node:os';

export interface BenchContext {
  /** Short trials (2 s instead of 10 s, 100 SSE clients instead of 1,000, smaller files). */
  quick: boolean;
  log(message: string): void;
}

export interface Row {
  /** Which measurement (1 to 5) the row belongs to. */
  group: string;
  figure: string;
  value: number | null;
  unit: string;
  baseline: number | null;
  /** What the baseline is, e.g. "lit alone" or "budget". */
  baselineLabel: string;
  /** value / baseline when both are known. */
  ratio: number | null;
  /** Human-readable target, e.g. "<= 9 KB" or "ratio >= 0.7"; "" when informational. */
  target: string;
  /** true met, false missed, null no target or not measured. */
  met: boolean | null;
  note?: string;
  /** For a median of repeated runs: the lowest and highest run and how many runs there were. */
  spread?: { min: number; max: number; runs: number };
  /** Extra figures for results.json (percentiles, attribution, ...). */
  details?: unknown;
}

export function row(partial: Omit<Row, 'ratio'> & { ratio?: number | null }): Row {
  const ratio =
    partial.ratio !== undefined
      ? partial.ratio
      : partial.value !== null && partial.baseline !== null && partial.baseline !== 0
        ? partial.value / partial.baseline
        : null;
  return { ...partial, ratio };
}

/** A row for a figure that could not be measured (a part not built yet, a failure). */
export function unavailable(group: string, figure: string, target: string, why: string): Row {
  return { group, figure, value: null, unit: '', baseline: null, baselineLabel: '', ratio: null, target, met: null, note: why };
}

export function num(value: number | null, unit = ''): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  const text = abs >= 1000 ? value.toFixed(0) : abs >= 100 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toFixed(3);
  return unit ? `${text} ${unit}` : text;
}

export function formatTable(rows: Row[]): string {
  const header = ['#', 'figure', 'value', 'baseline', 'ratio', 'target', 'met'];
  const lines = rows.map((r) => [
    r.group,
    r.figure,
    r.spread ? `${num(r.value, r.unit)} (${num(r.spread.min)}–${num(r.spread.max)}, median of ${r.spread.runs})` : num(r.value, r.unit),
    r.baseline === null ? r.baselineLabel || '—' : `${num(r.baseline, r.unit)} (${r.baselineLabel})`,
    r.ratio === null ? '—' : r.ratio.toFixed(2),
    r.target || '—',
    r.met === null ? (r.value === null ? `n/a${r.note ? `: ${r.note}` : ''}` : '—') : r.met ? 'yes' : 'missed',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

export function environment() {
  const cpu = cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu_count: cpu.length,
    cpu_model: cpu[0]?.model ?? 'unknown',
    memory_mb: Math.round(totalmem() / 2 ** 20),
    /** 1-minute load average when the run started: how busy the (shared) machine was. */
    load_average_1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

// Types of svg.cjs for TypeScript callers.
export interface Series {
  name: string;
  points: [number, number | null][];
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  markers?: { x: number; label: string }[];
  width?: number;
  height?: number;
  xIsTime?: boolean;
  yMin?: number;
}

export declare const PALETTE: readonly string[];
export declare function lineChart(options: ChartOptions): string;
export declare function niceTicks(min: number, max: number, count?: number): number[];
export declare function formatTime(seconds: number): string;
export declare function escapeXml(text: string): string;

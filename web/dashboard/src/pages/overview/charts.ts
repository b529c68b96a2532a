// The chart library (Mantine charts over recharts, about 120 KB of gzip) in a chunk of its own:
// the overview's totals render without it, and the charts fill in when it arrives.
import '@mantine/charts/styles.css';

export { BarChart, LineChart } from '@mantine/charts';

// Preloaded into benchmark children (NODE_OPTIONS=--import): writes the process's peak RSS (KB) at exit.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));

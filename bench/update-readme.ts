// `npm run bench:readme`: rewrites the README's benchmark block from bench/results/latest.json, without
// running any benchmark (after editing the block's template in bench/readme-figures.ts, or a merge).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReadmeFigures } from './readme-figures';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const changed = writeReadmeFigures(path.join(root, 'README.md'), path.join(root, 'bench', 'results', 'latest.json'));
console.log(changed ? 'README.md: benchmark figures rewritten' : 'README.md: benchmark figures already up to date');

import { bundleFunction, weighByOrigin } from '../infra/bundle-analysis';
import { FUNCTIONS } from '../infra/functions';
const base = await bundleFunction(process.cwd(), FUNCTIONS.notFound.entry);
const baseW = new Map(weighByOrigin(base.inputs).map((w) => [w.origin, w.bytes]));
for (const name of process.argv.slice(2)) {
  const b = await bundleFunction(process.cwd(), FUNCTIONS[name as keyof typeof FUNCTIONS].entry);
  const extra = weighByOrigin(b.inputs).map((w) => ({ ...w, extra: w.bytes - (baseW.get(w.origin) ?? 0) })).filter((w) => w.extra > 1500).sort((a, b) => b.extra - a.extra);
  console.log(`\n${name} ${(b.bytes / 1024).toFixed(1)} KiB (+${((b.bytes - base.bytes) / 1024).toFixed(1)})`, b.startBuiltins.filter((x) => !base.startBuiltins.includes(x)).join(' '));
  for (const w of extra.slice(0, 14)) console.log(`  ${(w.extra / 1024).toFixed(1).padStart(6)}  ${w.origin}`);
}

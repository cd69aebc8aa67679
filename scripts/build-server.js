// Bundles server.ts into build/server.js. It must hold no app module: the app lives once, in the
// Remix server build (build/index.js), which server.ts loads (decision 022). The build fails if an
// import of server.ts pulls an app module in. Source maps only when asked (SOURCEMAP=1).
// buildSync: one esbuild process for this one build, no long-lived service (the async API's service
// once died at exit with Go's "all goroutines are asleep - deadlock!" on a loaded machine, failing the build)
import { buildSync } from 'esbuild'

const result = buildSync({
  entryPoints: ['server.ts'],
  outfile: 'build/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: process.env.SOURCEMAP === '1',
  metafile: true,
  logLevel: 'warning',
})
const inputs = Object.keys(result.metafile.inputs)
const strays = inputs.filter((f) => f !== 'server.ts')
if (strays.length) {
  console.error(`build/server.js must hold server.ts alone; it also bundled:\n  ${strays.join('\n  ')}`)
  process.exit(1)
}

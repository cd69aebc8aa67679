/**
 * npm run metrc — the METRC emulator on its own (issue 9): METRC_EMULATOR_PORT (3500),
 * METRC_EMULATOR_DIR (./data/metrc-emulator), METRC_EMULATOR_ADMIN (the token for its fault
 * controls; printed when generated). Point Canopy at it with METRC_URL and METRC_VENDOR_KEY.
 */
import { startMetrcEmulator, DEMO_USER_KEY, GROW_LICENSE } from '../app/metrc/emulator'

async function main() {
  const e = process.env
  const port = Number(e.METRC_EMULATOR_PORT ?? 3500)
  const emu = await startMetrcEmulator({ dataDir: e.METRC_EMULATOR_DIR ?? './data/metrc-emulator', port, host: e.METRC_EMULATOR_HOST ?? '127.0.0.1', adminToken: e.METRC_EMULATOR_ADMIN })
  process.stdout.write(
    [
      `METRC emulator on ${emu.url}`,
      `  vendor key ${emu.vendorKey} · demo user key ${DEMO_USER_KEY} · cultivation license ${GROW_LICENSE}`,
      `  Canopy: METRC_URL=${emu.url} METRC_VENDOR_KEY=${emu.vendorKey}`,
      `  faults: curl -X POST ${emu.url}/_emulator/faults -H 'x-emulator-admin: ${emu.adminToken}' -d '{"down":true}'`,
      '',
    ].join('\n'),
  )
  const stop = async () => {
    await emu.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((err) => {
  process.stderr.write(`metrc: ${(err as Error).message}\n`)
  process.exit(1)
})

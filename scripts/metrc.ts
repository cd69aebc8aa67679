/**
 * npm run metrc — the METRC emulator on its own (issue 9): METRC_EMULATOR_PORT (3500),
 * METRC_EMULATOR_DIR (./data/metrc-emulator), METRC_EMULATOR_ADMIN (the token for its fault
 * controls; printed when generated), METRC_EMULATOR_SEED (the demo world's seed, used only when the
 * folder holds no state yet). Point Canopy at it with METRC_URL and METRC_VENDOR_KEY.
 */
import { startMetrcEmulator, DEMO_USER_KEY, GROW_LICENSE } from '../app/metrc/emulator'

async function main() {
  const e = process.env
  const port = Number(e.METRC_EMULATOR_PORT ?? 3500)
  const seed = e.METRC_EMULATOR_SEED ? Number(e.METRC_EMULATOR_SEED) : undefined
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`METRC_EMULATOR_PORT expects a port number 0-65535, not ${e.METRC_EMULATOR_PORT}`)
  if (seed !== undefined && !Number.isInteger(seed)) throw new Error(`METRC_EMULATOR_SEED expects a whole number, not ${e.METRC_EMULATOR_SEED}`)
  const emu = await startMetrcEmulator({ dataDir: e.METRC_EMULATOR_DIR ?? './data/metrc-emulator', port, host: e.METRC_EMULATOR_HOST ?? '127.0.0.1', adminToken: e.METRC_EMULATOR_ADMIN, seed: seed === undefined ? undefined : { seed } })
  process.stdout.write(
    [
      `METRC emulator on ${emu.url}`,
      `  vendor key ${emu.vendorKey} · demo user key ${DEMO_USER_KEY} · cultivation license ${GROW_LICENSE}`,
      `  Canopy: METRC_URL=${emu.url} METRC_VENDOR_KEY=${emu.vendorKey}`,
      `  faults: curl -X POST ${emu.url}/_emulator/faults -H 'x-emulator-admin: ${emu.adminToken}' -d '{"down":true}'`,
      `          (down, reset, slowMs, storm429, retryAfterS, expiredKeys, refuseMs); log: curl ${emu.url}/_emulator/requests -H 'x-emulator-admin: …'`,
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

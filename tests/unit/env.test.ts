import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ConfigError, loadEnv, parseEnv } from '#app/config/env.server'
import { demoDevicesOn, printDirOf } from '#app/devices/simulator/index.server'

describe('configuration', () => {
  it('has working defaults', () => {
    const e = parseEnv({})
    expect(e).toMatchObject({ PORT: 3000, DATA_DIR: './data', LOG_LEVEL: 'info' })
    expect(e.DATABASE_URL).toBeUndefined()
    expect(e.MQTT_URL).toBeUndefined()
  })

  it('names every bad variable and what it expects', () => {
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'has space 1A!' })
      expect.fail('should throw')
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError)
      const m = (e as Error).message
      expect(m).toMatch(/PORT="eighty": expects a port number/)
      expect(m).toMatch(/DATABASE_URL="mysql:\/\/x": expects a postgres:\/\/ or postgresql:\/\/ URL/)
      expect(m).toMatch(/LOG_LEVEL="loud"/)
      expect(m).toMatch(/ADMIN_EMAIL="nope": expects an email address/)
      expect(m).toMatch(/ADMIN_PASSWORD=.*expects no/)
    }
  })

  it('makes download links last FILE_TOKEN_TTL_S seconds, 300 unless set, and refuses a lifetime that is not one', () => {
    expect(parseEnv({}).FILE_TOKEN_TTL_S).toBe(300)
    expect(parseEnv({ FILE_TOKEN_TTL_S: '' }).FILE_TOKEN_TTL_S).toBe(300)
    expect(parseEnv({ FILE_TOKEN_TTL_S: '60' }).FILE_TOKEN_TTL_S).toBe(60)
    expect(() => parseEnv({ FILE_TOKEN_TTL_S: 'soon' })).toThrow(/FILE_TOKEN_TTL_S="soon": expects seconds/)
    expect(() => parseEnv({ FILE_TOKEN_TTL_S: '1.5' })).toThrow(/FILE_TOKEN_TTL_S="1.5": expects whole seconds/)
    expect(() => parseEnv({ FILE_TOKEN_TTL_S: '0' })).toThrow(/FILE_TOKEN_TTL_S="0": expects seconds, at least 1/)
    expect(() => parseEnv({ FILE_TOKEN_TTL_S: '100000' })).toThrow(/FILE_TOKEN_TTL_S="100000": expects seconds, at most 86400/)
  })

  it('limits uploads to MAX_UPLOAD_MB megabytes, 10 unless set, and refuses a limit that is not one', () => {
    expect(parseEnv({}).MAX_UPLOAD_MB).toBe(10)
    expect(parseEnv({ MAX_UPLOAD_MB: '' }).MAX_UPLOAD_MB).toBe(10)
    expect(parseEnv({ MAX_UPLOAD_MB: '2.5' }).MAX_UPLOAD_MB).toBe(2.5)
    expect(() => parseEnv({ MAX_UPLOAD_MB: 'ten' })).toThrow(/MAX_UPLOAD_MB="ten": expects megabytes/)
    expect(() => parseEnv({ MAX_UPLOAD_MB: '0' })).toThrow(/MAX_UPLOAD_MB="0": expects megabytes, more than 0/)
    expect(() => parseEnv({ MAX_UPLOAD_MB: '5000' })).toThrow(/MAX_UPLOAD_MB="5000": expects megabytes, at most 1024/)
  })

  it('has generous rate limits unless set, 0 turns one off, and nonsense is refused', () => {
    expect(parseEnv({})).toMatchObject({ RATE_LIMIT_PER_SEC: 20, RATE_LIMIT_BURST: 60, RATE_LIMIT_ADDRESS_PER_SEC: 100, RATE_LIMIT_ADDRESS_BURST: 600 })
    expect(parseEnv({ RATE_LIMIT_PER_SEC: '0.5', RATE_LIMIT_BURST: '5', RATE_LIMIT_ADDRESS_PER_SEC: '', RATE_LIMIT_ADDRESS_BURST: '' })).toMatchObject({ RATE_LIMIT_PER_SEC: 0.5, RATE_LIMIT_BURST: 5, RATE_LIMIT_ADDRESS_PER_SEC: 100, RATE_LIMIT_ADDRESS_BURST: 600 })
    expect(parseEnv({ RATE_LIMIT_PER_SEC: '0', RATE_LIMIT_ADDRESS_PER_SEC: '0' })).toMatchObject({ RATE_LIMIT_PER_SEC: 0, RATE_LIMIT_ADDRESS_PER_SEC: 0 })
    expect(() => parseEnv({ RATE_LIMIT_PER_SEC: 'fast' })).toThrow(/RATE_LIMIT_PER_SEC="fast": expects requests per second/)
    expect(() => parseEnv({ RATE_LIMIT_PER_SEC: '-1' })).toThrow(/RATE_LIMIT_PER_SEC="-1": expects requests per second, 0 \(off\) or more/)
    expect(() => parseEnv({ RATE_LIMIT_BURST: '0' })).toThrow(/RATE_LIMIT_BURST="0": expects at least 1 request/)
    expect(() => parseEnv({ RATE_LIMIT_ADDRESS_BURST: '2.5' })).toThrow(/RATE_LIMIT_ADDRESS_BURST="2.5": expects a whole number of requests/)
    expect(() => parseEnv({ RATE_LIMIT_ADDRESS_PER_SEC: '1e9' })).toThrow(/RATE_LIMIT_ADDRESS_PER_SEC="1e9": expects requests per second, at most 100000/)
  })

  it('configures the device simulator: on with the demo data (itself on by default) unless DEMO_DEVICES says, sensors every 5 s, prints under DATA_DIR, silent devices listed', () => {
    expect(demoDevicesOn(parseEnv({}))).toBe(true) // the demo data is on unless DEMO_DATA=0
    expect(demoDevicesOn(parseEnv({ DEMO_DATA: '0' }))).toBe(false)
    expect(demoDevicesOn(parseEnv({ DEMO_DATA: '1', DEMO_DEVICES: '0' }))).toBe(false)
    expect(demoDevicesOn(parseEnv({ DEMO_DEVICES: '1' }))).toBe(true)
    expect(parseEnv({}).DEVICES_SENSOR_EVERY_MS).toBe(5000)
    expect(printDirOf(parseEnv({ DATA_DIR: '/srv/canopy' }))).toBe(path.resolve('/srv/canopy/prints'))
    expect(printDirOf(parseEnv({ DATA_DIR: '/srv/canopy', PRINT_DIR: '/tmp/labels' }))).toBe('/tmp/labels')
    expect(parseEnv({}).DEVICES_SILENT).toBeUndefined()
    expect(parseEnv({ DEVICES_SILENT: 'SCA-2,SCA-3' }).DEVICES_SILENT).toEqual(['SCA-2', 'SCA-3'])
    expect(() => parseEnv({ DEVICES_SENSOR_EVERY_MS: '50' })).toThrow(/DEVICES_SENSOR_EVERY_MS="50": expects milliseconds, at least 200/)
    expect(() => parseEnv({ DEVICES_SILENT: 'SCA-2, ../x' })).toThrow(/DEVICES_SILENT=.*expects device ids separated by commas/)
    expect(() => parseEnv({ DEMO_DEVICES: 'yes' })).toThrow(/DEMO_DEVICES="yes"/)
  })

  it('times requests out after REQUEST_TIMEOUT_MS, 30 s unless set', () => {
    expect(parseEnv({}).REQUEST_TIMEOUT_MS).toBe(30_000)
    expect(parseEnv({ REQUEST_TIMEOUT_MS: '5000' }).REQUEST_TIMEOUT_MS).toBe(5000)
    expect(() => parseEnv({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS="soon": expects milliseconds/)
    expect(() => parseEnv({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS="10": expects milliseconds, at least 100/)
    expect(() => parseEnv({ REQUEST_TIMEOUT_MS: '3600000' })).toThrow(/REQUEST_TIMEOUT_MS="3600000": expects milliseconds, at most 600000/)
  })

  it('keeps the embedded broker on this machine with 256 KiB packets, refuses anonymous external brokers, unless set (issue 20)', () => {
    expect(parseEnv({})).toMatchObject({ MQTT_HOST: '127.0.0.1', MQTT_MAX_PACKET_BYTES: 262_144, MQTT_ALLOW_ANONYMOUS: '0' })
    expect(parseEnv({ MQTT_HOST: '0.0.0.0', MQTT_MAX_PACKET_BYTES: '1048576', MQTT_ALLOW_ANONYMOUS: '1' })).toMatchObject({ MQTT_HOST: '0.0.0.0', MQTT_MAX_PACKET_BYTES: 1_048_576, MQTT_ALLOW_ANONYMOUS: '1' })
    expect(() => parseEnv({ MQTT_MAX_PACKET_BYTES: 'big' })).toThrow(/MQTT_MAX_PACKET_BYTES="big": expects bytes/)
    expect(() => parseEnv({ MQTT_MAX_PACKET_BYTES: '100' })).toThrow(/MQTT_MAX_PACKET_BYTES="100": expects bytes, at least 1024/)
    expect(() => parseEnv({ MQTT_MAX_PACKET_BYTES: '300000000' })).toThrow(/MQTT_MAX_PACKET_BYTES="300000000": expects bytes, at most 268435455/)
    expect(() => parseEnv({ MQTT_ALLOW_ANONYMOUS: 'yes' })).toThrow(/MQTT_ALLOW_ANONYMOUS="yes"/)
  })

  it('generates the session secret once and keeps it in DATA_DIR', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-env-'))
    const a = loadEnv({ DATA_DIR: dir })
    const b = loadEnv({ DATA_DIR: dir })
    expect(a.SESSION_SECRET).toHaveLength(43)
    expect(b.SESSION_SECRET).toBe(a.SESSION_SECRET)
    expect(fs.statSync(path.join(dir, 'session-secret')).mode & 0o777).toBe(0o600)
    expect(loadEnv({ DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40) }).SESSION_SECRET).toBe('x'.repeat(40))
    fs.rmSync(dir, { recursive: true })
  })

  it('refuses a DATA_DIR it cannot write', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-env-')), 'a-file')
    fs.writeFileSync(file, 'x')
    expect(() => loadEnv({ DATA_DIR: file })).toThrow(/DATA_DIR=.*expects a folder/)
  })
})

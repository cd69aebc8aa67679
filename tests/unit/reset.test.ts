import { migrationObjects } from '#app/db/reset.server'

describe('seed --reset', () => {
  it('drops what every migration creates, a later one included', () => {
    const { tables, functions } = migrationObjects()
    expect(tables).toEqual(expect.arrayContaining(['canopy_collections', 'audit_log', 'canopy_meta', 'auth_passwords', 'auth_sessions', 'auth_login_attempts', 'device_keys']))
    expect(functions.sort()).toEqual(['canopy_audit_is_append_only', 'canopy_measure', 'canopy_num'])
  })
})

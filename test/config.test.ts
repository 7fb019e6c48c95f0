import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../src/config.ts'

describe('loadConfig', () => {
  test('defaults: every interface, port 8000, ./data/belay.sqlite3, UTC, no public URL, tokens never expire, a snapshot a day kept 14 days beside the database', () => {
    expect(loadConfig([], {})).toEqual({
      host: '0.0.0.0',
      port: 8000,
      dbPath: './data/belay.sqlite3',
      publicUrl: null,
      tokenLifetimeHours: null,
      sessionIdleHours: 12,
      sessionMaxAgeHours: 168,
      adminEmail: null,
      adminPassword: null,
      gymName: 'My Gym',
      timeZone: 'UTC',
      healthMinFreeMb: 100,
      healthMaxOutboxAgeMinutes: 60,
      backupDir: 'data/backups',
      backupIntervalSeconds: 86_400,
      backupKeep: 14,
      hubServers: [],
      site: null,
      hubOrganization: 'belay',
      hubCreds: null,
      hubTlsCa: null,
      hubReplicas: 1,
    })
  })

  test('a site of a hub: servers comma-separated, a site name, both or neither', () => {
    const config = loadConfig(['--hub', 'nats://hub-a:4222, nats://hub-b:4222', '--site', 'north-wall'], {
      BELAY_HUB_CREDS: 'north:secret',
    })
    expect([config.hubServers, config.site, config.hubCreds]).toEqual([
      ['nats://hub-a:4222', 'nats://hub-b:4222'],
      'north-wall',
      'north:secret',
    ])
    expect(() => loadConfig(['--hub', 'nats://hub:4222'], {})).toThrow(
      '--hub needs --site: the name of this box among the sites',
    )
    expect(() => loadConfig([], { BELAY_SITE: 'north' })).toThrow('--site needs --hub')
    expect(() => loadConfig(['--hub', 'nats://hub:4222', '--site', 'North Wall'], {})).toThrow(
      'invalid name North Wall for the hub: lowercase letters, digits and hyphens, at most 40',
    )
  })

  test("/healthz's thresholds: free MiB and outbox minutes, fractions allowed", () => {
    const config = loadConfig(['--health-min-free-mb', '0.5'], {
      BELAY_HEALTH_MAX_OUTBOX_AGE_MINUTES: '1440',
    })
    expect([config.healthMinFreeMb, config.healthMaxOutboxAgeMinutes]).toEqual([0.5, 1440])
  })

  test('the snapshot folder follows the database unless it is given', () => {
    expect(loadConfig(['--db', '/var/lib/belay/gym.sqlite3'], {}).backupDir).toBe('/var/lib/belay/backups')
    expect(loadConfig(['--backup-dir', '/mnt/usb'], { BELAY_DB: '/srv/b.sqlite3' }).backupDir).toBe(
      '/mnt/usb',
    )
  })

  const intervals: Array<[string, number | null]> = [
    ['24h', 86_400],
    ['6', 21_600],
    ['30m', 1_800],
    ['90s', 90],
    ['1.5h', 5_400],
    ['0', null],
    ['off', null],
    ['OFF', null],
  ]
  for (const [text, seconds] of intervals) {
    test(`--backup-interval ${text} is ${seconds === null ? 'no snapshots' : `${seconds} s`}`, () => {
      expect(loadConfig(['--backup-interval', text], {}).backupIntervalSeconds).toBe(seconds)
    })
  }

  test('environment variables set values; flags beat them', () => {
    const env = {
      BELAY_PORT: '9000',
      BELAY_DB: '/var/lib/belay/gym.sqlite3',
      BELAY_TIME_ZONE: 'America/Denver',
    }
    const config = loadConfig(['--port', '9100', '--host=127.0.0.1'], env)
    expect(config.port).toBe(9100)
    expect(config.host).toBe('127.0.0.1')
    expect(config.dbPath).toBe('/var/lib/belay/gym.sqlite3')
    expect(config.timeZone).toBe('America/Denver')
  })

  test('an empty environment variable counts as unset', () => {
    expect(loadConfig([], { BELAY_PORT: '' }).port).toBe(8000)
  })

  test('the public URL is reduced to its origin', () => {
    expect(loadConfig(['--public-url', 'https://desk.gym.example/some/path'], {}).publicUrl).toBe(
      'https://desk.gym.example',
    )
  })

  const refusals: Array<[string, string[], Record<string, string>, string]> = [
    ['an unknown flag', ['--nope', '1'], {}, 'unknown option --nope'],
    ['a flag without its value', ['--port'], {}, '--port needs a value'],
    ['a port that is not a number', ['--port', 'http'], {}, 'invalid port http'],
    ['a port out of range', [], { BELAY_PORT: '70000' }, 'invalid port 70000'],
    ['an unknown time zone', [], { BELAY_TIME_ZONE: 'Mars/Base' }, 'unknown time zone Mars/Base'],
    ['a public URL that is not a URL', ['--public-url', 'desk'], {}, 'invalid public URL desk'],
    [
      'a backup interval without a number',
      ['--backup-interval', 'daily'],
      {},
      'invalid backup interval daily (e.g. 24h, 30m, 90s, or off)',
    ],
    [
      'a backup interval in days',
      [],
      { BELAY_BACKUP_INTERVAL: '2d' },
      'invalid backup interval 2d (e.g. 24h, 30m, 90s, or off)',
    ],
    ['keeping no snapshot', ['--backup-keep', '0'], {}, '--backup-keep takes a whole number from 1, not 0'],
    [
      'a zero token lifetime',
      [],
      { BELAY_TOKEN_LIFETIME_HOURS: '0' },
      'token lifetime must be a positive number of hours',
    ],
    [
      'a negative free-space minimum',
      ['--health-min-free-mb=-1'],
      {},
      'minimum free space must be a number of MiB, 0 or more',
    ],
    [
      'a zero outbox age',
      ['--health-max-outbox-age-minutes', '0'],
      {},
      'maximum outbox age must be a positive number of minutes',
    ],
  ]
  for (const [name, args, env, message] of refusals) {
    test(`refuses ${name}`, () => {
      expect(() => loadConfig(args, env)).toThrow(new ConfigError(message))
    })
  }
})

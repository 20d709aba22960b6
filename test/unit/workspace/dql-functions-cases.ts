/**
 * The DQL function library and clauses over the golden dataset (dataset.ts), each answer worked
 * out by hand in its comment, for every engine (dql-functions.test.ts, dql-clickhouse.test.ts).
 * Host h1 in the last 10 minutes has usage_idle 0, 10, .., 90 and usage_user 0..9 (i minutes +
 * 1 ago: idle = (i % 10) * 10 + host number, user = i); h2 and h3 add 1 and 2 to idle; h1 and h2
 * are east, h3 west. Logs: nginx, 5 rows (dataset.ts).
 */
import { NOW } from './dataset.js'

const MIN = 60_000
/** One series without tags. */
const one = (columns: string[], values: unknown[][]) => [{ tags: undefined, columns, values }]
const FIRST_10M = NOW - 10 * MIN

export const functionCases: [string, unknown][] = [
  // 10 distinct idle values per host, all different across hosts -> 30; 3 hosts.
  [
    'M::cpu:(count_distinct(usage_idle), count_distinct(host)) [10m]',
    one(['time', 'count_distinct(usage_idle)', 'count_distinct(host)'], [[FIRST_10M, 30, 3]]),
  ],
  // h1: 0..90 -> median 45, p90 at rank 8.1 -> 80 + 0.1 * 10 = 81, spread 90.
  [
    "M::cpu:(median(usage_idle), percentile(usage_idle, 90), spread(usage_idle)) {host='h1'} [10m]",
    one(
      ['time', 'median(usage_idle)', 'percentile(usage_idle, 90)', 'spread(usage_idle)'],
      [[FIRST_10M, 45, 81, 90]],
    ),
  ],
  // east has 20 of the 30 rows.
  ['M::cpu:(mode(region)) [10m]', one(['time', 'mode(region)'], [[FIRST_10M, 'east']])],
  // sample stddev of 0, 10 (h1 one and two minutes ago... idle 0 and 10): sqrt(50).
  [
    "M::cpu:(stddev(usage_idle)) {host='h1'} [2m]",
    one(['time', 'stddev(usage_idle)'], [[NOW - 2 * MIN, Math.sqrt(50)]]),
  ],
  // sum(user) 45 over count 10; round(avg(idle) / 3) = round(15); abs(min(user) - 10) = 10.
  [
    "M::cpu:(sum(usage_user) / count(usage_user) AS mean, round(avg(usage_idle) / 3), abs(min(usage_user) - 10)) {host='h1'} [10m]",
    one(
      ['time', 'mean', 'round(avg(usage_idle) / 3)', 'abs(min(usage_user) - 10)'],
      [[FIRST_10M, 4.5, 15, 10]],
    ),
  ],
  // user is 4, 3, 2, 1, 0 going forward in time: each step -1, per second -1/60.
  [
    "M::cpu:(difference(usage_user)) {host='h1'} [5m]",
    one(
      ['time', 'difference(usage_user)'],
      [1, 2, 3, 4].map((m) => [NOW - m * MIN, -1]),
    ),
  ],
  [
    "M::cpu:(derivative(usage_user)) {host='h1'} [3m] LIMIT 1",
    one(['time', 'derivative(usage_user)'], [[NOW - MIN, -1 / 60]]),
  ],
  // outer functions: the differences -1 summed forward in time: -1, -2, -3, -4.
  [
    `difference(dql="M::cpu:(usage_user) {host='h1'} [5m]").cumsum()`,
    one(
      ['time', 'usage_user'],
      [1, 2, 3, 4].map((m) => [NOW - m * MIN, m - 5]),
    ),
  ],
  // reducers: h1 user in 5m is 0..4: sum 10 at time 0; last keeps the newest row's time.
  ["sum(`M::cpu:(usage_user) {host='h1'} [5m]`)", one(['time', 'usage_user'], [[0, 10]])],
  [
    `difference(dql="M::cpu:(usage_user) {host='h1'} [5m]").last()`,
    one(['time', 'usage_user'], [[NOW - MIN, -1]]),
  ],
  // a falling counter: no non-negative change at all, so no rows and no series.
  ["M::cpu:(non_negative_derivative(usage_user)) {host='h1'} [5m]", []],
  // idle 40, 30, 20, 10, 0 going forward: windows of 2 -> 35, 25, 15, 5.
  [
    "M::cpu:(moving_average(usage_idle, 2)) {host='h1'} [5m] ORDER BY time ASC",
    one(
      ['time', 'moving_average(usage_idle, 2)'],
      [
        [NOW - 4 * MIN, 35],
        [NOW - 3 * MIN, 25],
        [NOW - 2 * MIN, 15],
        [NOW - MIN, 5],
      ],
    ),
  ],
  // h2 idle in 10m: 1..91; the largest two at 10 and 9 minutes ago.
  [
    "M::cpu:(top(usage_idle, 2)) {host='h2'} [10m]",
    one(
      ['time', 'usage_idle'],
      [
        [NOW - 10 * MIN, 91],
        [NOW - 9 * MIN, 81],
      ],
    ),
  ],
  [
    "M::cpu:(bottom(usage_idle, 1)) {host='h3'} [10m]",
    one(['time', 'usage_idle'], [[NOW - MIN, 2]]),
  ],
  // max per host in 10m: 90, 91, 92; HAVING keeps h2, h3; SORDER BY puts h3 first.
  [
    'M::cpu:(max(usage_idle) AS m) [10m] BY host HAVING m > 90 SORDER BY m DESC',
    [
      { tags: { host: 'h3' }, columns: ['time', 'm'], values: [[FIRST_10M, 92]] },
      { tags: { host: 'h2' }, columns: ['time', 'm'], values: [[FIRST_10M, 91]] },
    ],
  ],
  [
    'M::cpu:(max(usage_idle)) [10m] BY host SORDER BY max(usage_idle) ASC SLIMIT 1',
    [{ tags: { host: 'h1' }, columns: ['time', 'max(usage_idle)'], values: [[FIRST_10M, 90]] }],
  ],
  // ORDER BY an expression: per 5m bucket of h1, avg idle 70 (i=5..9) then 20 (i=0..4).
  [
    "M::cpu:(avg(usage_idle)) {host='h1'} [10m::5m] ORDER BY avg(usage_idle) ASC",
    one(
      ['time', 'avg(usage_idle)'],
      [
        [NOW - 5 * MIN, 20],
        [NOW - 10 * MIN, 70],
      ],
    ),
  ],
  // rollup last per series and 5m bucket: user 5 (6 minutes ago) then 0; east sums h1 + h2.
  [
    'M::cpu:(sum(usage_user)) [10m::5m:last] BY region',
    [
      {
        tags: { region: 'east' },
        columns: ['time', 'sum(usage_user)'],
        values: [
          [NOW - 5 * MIN, 0],
          [NOW - 10 * MIN, 10],
        ],
      },
      {
        tags: { region: 'west' },
        columns: ['time', 'sum(usage_user)'],
        values: [
          [NOW - 5 * MIN, 0],
          [NOW - 10 * MIN, 5],
        ],
      },
    ],
  ],
  // rate rollup of the falling user counter is clamped at 0; p50 of h1 idle in 5m is 20.
  [
    "M::cpu:(max(usage_user)) {host='h1'} [5m::5m:rate]",
    one(['time', 'max(usage_user)'], [[NOW - 5 * MIN, 0]]),
  ],
  [
    "M::cpu:(max(usage_idle)) {host='h1'} [5m::5m:p50]",
    one(['time', 'max(usage_idle)'], [[NOW - 5 * MIN, 20]]),
  ],
  // logs of the last 15 minutes: error 2m ago, info 3m and 5m ago.
  [
    'L::*:(count(*)) [15m] BY status',
    [
      { tags: { status: 'error' }, columns: ['time', 'count(*)'], values: [[NOW - 2 * MIN, 1]] },
      { tags: { status: 'info' }, columns: ['time', 'count(*)'], values: [[NOW - 5 * MIN, 2]] },
    ],
  ],
  [
    "L::re('ngi.*'):(count(*)) BY source",
    [{ tags: { source: 'nginx' }, columns: ['time', 'count(*)'], values: [[NOW - 40 * MIN, 5]] }],
  ],
  ["L::re('apache'):(count(*))", []],
  ['L::default::nginx:(count(*))', one(['time', 'count(*)'], [[NOW - 40 * MIN, 5]])],
  // wildcard covers the whole value: 'slow GET /api' does not start with GET.
  [
    "L::nginx:(message) {message = wildcard('GET *')}",
    one(
      ['time', 'message'],
      [
        [NOW - 2 * MIN, 'GET /api failed'],
        [NOW - 3 * MIN, 'GET /about ok'],
      ],
    ),
  ],
  [
    "L::nginx:(status) {status NOT IN ['error', 'info'] AND message IS NOT NULL AND nope IS NULL}",
    one(['time', 'status'], [[NOW - 40 * MIN, 'warn']]),
  ],
  [
    'L::nginx:(distinct(status))',
    one(
      ['time', 'distinct(status)'],
      [
        [null, 'error'],
        [null, 'info'],
        [null, 'warn'],
      ],
    ),
  ],
]

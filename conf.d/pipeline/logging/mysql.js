// MySQL error log and slow query log (a slow-log record spans several lines).
grok(
  _,
  '%{TIMESTAMP_ISO8601:time}\\s+%{INT:thread_id}\\s+%{WORD:operation}\\s+%{GREEDYDATA:raw_query}',
)
grok(_, '%{TIMESTAMP_ISO8601:time} %{INT:thread_id} \\[%{NOTSPACE:status}\\] %{GREEDYDATA:msg}')
add_pattern('date2', '%{YEAR}%{MONTHNUM2}%{MONTHDAY} %{TIME}')
grok(_, '%{date2:time} \\s+(InnoDB:|\\[%{NOTSPACE:status}\\])\\s+%{GREEDYDATA:msg}')

add_pattern('timeline', '# Time: %{TIMESTAMP_ISO8601:time}')
add_pattern(
  'userline',
  '# User@Host: %{NOTSPACE:db_user}\\s+@\\s(%{NOTSPACE:db_host})?(\\s+)?\\[(%{NOTSPACE:db_ip})?\\](\\s+Id:\\s+%{INT:query_id})?',
)
add_pattern(
  'kvline01',
  '# Query_time: %{NUMBER:query_time}\\s+Lock_time: %{NUMBER:lock_time}\\s+Rows_sent: %{INT:rows_sent}\\s+Rows_examined: %{INT:rows_examined}',
)
add_pattern(
  'kvline02',
  '# Thread_id: %{INT:thread_id}\\s+Killed: %{INT:killed}\\s+Errno: %{INT:errno}',
)
add_pattern('kvline03', '# Bytes_sent: %{INT:bytes_sent}\\s+Bytes_received: %{INT:bytes_received}')
add_pattern('sqls', '(?s)(.*)')
grok(
  _,
  '%{timeline}\\n%{userline}\\n%{kvline01}(\\n)?(%{kvline02})?(\\n)?(%{kvline03})?\\n%{sqls:db_slow_statement}',
)

for (const k of [
  'thread_id',
  'query_id',
  'rows_sent',
  'rows_examined',
  'bytes_sent',
  'bytes_received',
  'killed',
  'errno',
])
  cast(k, 'int')
cast('query_time', 'float')
cast('lock_time', 'float')
for (const k of ['thread_id', 'killed', 'bytes_sent', 'bytes_received', 'errno']) nullif(k, 0)
nullif('db_host', '')
default_time('time')

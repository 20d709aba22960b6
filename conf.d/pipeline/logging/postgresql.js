// PostgreSQL server log (log_line_prefix '%m [%p] %d [%a] %u [%h] %c ').
add_pattern(
  'log_date',
  '%{YEAR}-%{MONTHNUM}-%{MONTHDAY}%{SPACE}%{HOUR}:%{MINUTE}:%{SECOND}%{SPACE}(?:CST|UTC)',
)
add_pattern('status', '(LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO)')
add_pattern('session_id', '([.0-9a-z]*)')
add_pattern('application_name', '(\\[%{GREEDYDATA:application_name}?\\])')
add_pattern('remote_host', '(\\[\\[?%{HOST:remote_host}?\\]?\\])')
grok(
  _,
  '%{log_date:time}%{SPACE}\\[%{INT:process_id}\\]%{SPACE}(%{WORD:db_name}?%{SPACE}%{application_name}%{SPACE}%{USER:user}?%{SPACE}%{remote_host}%{SPACE})?%{session_id:session_id}%{SPACE}(%{status:status}:)?',
)
grok(_, '%{log_date:time}%{SPACE}\\[%{INT:process_id}\\]%{SPACE}%{status:status}')

nullif('remote_host', '')
nullif('session_id', '')
nullif('application_name', '')
nullif('user', '')
nullif('db_name', '')
group_in('status', [''], 'INFO')
default_time('time')

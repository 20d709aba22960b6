// Kafka broker and Connect logs.
grok(_, '%{DATA:time} \\[%{WORD:thread_name}\\] %{WORD:status}  %{WORD:name} - %{GREEDYDATA:msg}')
grok(
  _,
  '^%{INT:duration} \\[%{WORD:thread_name}\\] %{LOGLEVEL:status} %{GREEDYDATA:name} - %{GREEDYDATA:msg}',
)
add_pattern('date', '%{INT}-%{INT}-%{INT} %{INT}:%{INT}:%{INT}')
grok(_, '^%{date:time} %{LOGLEVEL:status} %{DATA:name}:%{INT:line} - %{GREEDYDATA:msg}')
add_pattern('date1', '%{INT}-%{INT}-%{INT} %{INT}:%{INT}:%{INT},%{INT}')
grok(_, '^\\[%{date1:time}\\] %{WORD:status} %{DATA:msg} \\(%{DATA:name}\\)')
default_time('time')

// Apache httpd access and error logs.
grok(
  _,
  '%{GREEDYDATA:ip_or_host} - - \\[%{HTTPDATE:time}\\] "%{DATA:http_method} %{GREEDYDATA:http_url} HTTP/%{NUMBER:http_version}" %{NUMBER:http_code} ',
)
grok(_, '%{GREEDYDATA:ip_or_host} - - \\[%{HTTPDATE:time}\\] "-" %{NUMBER:http_code} ')
cast('http_code', 'int')

// error log, 2.4 (with tid) and 2.2 formats
grok(
  _,
  '\\[%{HTTPDERROR_DATE:time}\\] \\[%{GREEDYDATA:type}:%{GREEDYDATA:status}\\] \\[pid %{GREEDYDATA:pid}:tid %{GREEDYDATA:tid}\\] ',
)
grok(
  _,
  '\\[%{HTTPDERROR_DATE:time}\\] \\[%{GREEDYDATA:type}:%{GREEDYDATA:status}\\] \\[pid %{INT:pid}\\] ',
)
default_time('time')

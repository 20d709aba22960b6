// Tomcat: juli OneLineFormatter logs (catalina, host-manager, localhost, manager) and access logs.
add_pattern('olf_time', '%{MONTHDAY}-%{MONTH}-%{YEAR} %{TIME}')
grok(
  _,
  '%{olf_time:time} %{LOGLEVEL:status} \\[%{NOTSPACE:thread_name}\\] %{NOTSPACE:report_source} %{GREEDYDATA:msg}',
)
grok(
  _,
  '%{NOTSPACE:client_ip} %{NOTSPACE:http_ident} %{NOTSPACE:http_auth} \\[%{HTTPDATE:time}\\] "%{DATA:http_method} %{GREEDYDATA:http_url} HTTP/%{NUMBER:http_version}" %{INT:status_code} %{INT:bytes}',
)

cast('status_code', 'int')
cast('bytes', 'int')
group_between('status_code', [200, 299], 'OK', 'status')
group_between('status_code', [300, 399], 'notice', 'status')
group_between('status_code', [400, 499], 'warning', 'status')
group_between('status_code', [500, 599], 'error', 'status')

nullif('http_ident', '-')
nullif('http_auth', '-')
default_time('time')

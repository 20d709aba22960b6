// nginx access and error logs. Every grok runs in turn; later matches overwrite earlier ones.
add_pattern('date2', '%{YEAR}[./]%{MONTHNUM}[./]%{MONTHDAY} %{TIME}')
add_pattern(
  'access_common',
  '%{NOTSPACE:client_ip} %{NOTSPACE:http_ident} %{NOTSPACE:http_auth} \\[%{HTTPDATE:time}\\] "%{DATA:http_method} %{GREEDYDATA:http_url} HTTP/%{NUMBER:http_version}" %{INT:status_code} %{INT:bytes}',
)

// access log: common, then combined (referrer and user agent)
grok(_, '%{access_common}')
grok(_, '%{access_common} "%{NOTSPACE:referrer}" "%{GREEDYDATA:agent}"')
user_agent('agent')

// error log: with a request, with an upstream, or just the message
grok(
  _,
  '%{date2:time} \\[%{LOGLEVEL:status}\\] %{GREEDYDATA:msg}, client: %{NOTSPACE:client_ip}, server: %{NOTSPACE:server}, request: "%{DATA:http_method} %{GREEDYDATA:http_url} HTTP/%{NUMBER:http_version}", (upstream: "%{GREEDYDATA:upstream}", )?host: "%{NOTSPACE:ip_or_host}"',
)
grok(_, '%{date2:time} \\[%{LOGLEVEL:status}\\] %{GREEDYDATA:msg}')

group_in('status', ['warn', 'notice'], 'warning')
group_in('status', ['error', 'crit', 'alert', 'emerg'], 'error')

cast('status_code', 'int')
cast('bytes', 'int')
group_between('status_code', [200, 299], 'OK', 'status')
group_between('status_code', [300, 399], 'notice', 'status')
group_between('status_code', [400, 499], 'warning', 'status')
group_between('status_code', [500, 599], 'error', 'status')

nullif('http_ident', '-')
nullif('http_auth', '-')
nullif('upstream', '')
default_time('time')
